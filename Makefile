# mlcbook — the two commands are `make book` and `make test`; both set up .venv themselves.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# chapters in reading order come from _toc.yml; every book/*.md is a jupytext pair
CHAPTERS := $(wildcard book/*.md)

# Executed chapters must print nothing time-dependent: no progress bars, fixed hash seed.
export MLCBOOK_PROGRESS := 0
export PYTHONHASHSEED := 0
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: help install book test unit notebooks pairs site browser reproduce chapter bench clean chromium

help:
	@echo "make book       install into .venv and build the HTML site (_build/html) from committed outputs"
	@echo "make test       install and run every check: unit tests, notebook pairs, nbval, warning-free build, browser check"
	@echo "make reproduce  re-run the long experiments and re-execute every chapter, rewriting outputs"
	@echo "make chapter NB=book/losses.md   re-execute one chapter"
	@echo "make bench      speed comparisons against reference implementations"

install: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[book,test]'
	@touch $@

book: $(STAMP)
	$(BIN)/jupyter-book build . --builder html
	@echo "open _build/html/index.html"

# ---------------------------------------------------------------- checks
test: $(STAMP) unit pairs notebooks site browser
	@echo "make test: all checks passed"

unit: $(STAMP)
	$(BIN)/python -m pytest tests --ignore=tests/browser --ignore=tests/test_notebook_pairs.py \
		--ignore=tests/test_pdf.py -q

pairs: $(STAMP)
	$(BIN)/python -m pytest tests/test_notebook_pairs.py -q

notebooks: $(STAMP)
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
		-p no:randomly book -q

site: $(STAMP)
	rm -rf _build/html _build/.doctrees
	$(BIN)/jupyter-book build . --builder html --all -W --keep-going

browser: $(STAMP) chromium
	$(BIN)/python -m pytest tests/browser -q

chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium for the browser check"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# ---------------------------------------------------------------- outputs
# the all-ledgers page reads the ledgers the chapters save, so it runs last
REPRODUCE := $(filter-out book/ledgers.md,$(CHAPTERS)) book/ledgers.md

reproduce: $(STAMP)
	@for nb in $(REPRODUCE); do \
	  MLCBOOK_RECOMPUTE=1 $(MAKE) --no-print-directory chapter NB=$$nb || exit 1; \
	done

# execute a chapter, write outputs to its paired .ipynb, drop per-cell timing metadata (noise in diffs)
define execute_chapter
	$(BIN)/jupytext --sync --execute $(1)
	$(BIN)/python -c 'import sys, nbformat; p = sys.argv[1]; nb = nbformat.read(p, 4); [c.metadata.pop("execution", None) for c in nb.cells]; nbformat.write(nb, p)' $(basename $(1)).ipynb
endef

chapter: $(STAMP)
	@test -n "$(NB)" || { echo "usage: make chapter NB=book/NAME.md"; exit 2; }
	$(call execute_chapter,$(NB))

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf _build

# ---------------------------------------------------------------- pdf
# The whole book as one PDF: the single-page HTML build, printed by Debian's Chromium through
# Playwright (the site's own MathJax, figures and HTML tables, print CSS; no LaTeX toolchain,
# no browser download). poppler-utils gives pdfinfo/pdftotext for tests/test_pdf.py.
PDF := _build/pdf/mlcbook.pdf
.PHONY: pdf pdfcheck poppler

pdf: $(STAMP) chromium poppler
	rm -rf _build/singlehtml
	$(BIN)/jupyter-book build . --builder singlehtml
	$(BIN)/python book/_ext/print_pdf.py _build/singlehtml $(PDF)
	@pdfinfo $(PDF) | grep -E '^Pages'

poppler:
	@command -v pdftotext >/dev/null || { \
	  echo "installing Debian's poppler-utils for the PDF check"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq poppler-utils >/dev/null; }

# checks the PDF that `make pdf` built (fails, never skips, when it is missing)
pdfcheck: $(STAMP) poppler
	$(BIN)/python -m pytest tests/test_pdf.py -q
