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

.PHONY: help install lock book test unit pairs notebooks portable site browser clean-tree \
        test-matrix reproduce table chapter bench clean chromium clus

# The book's environment: every package pinned, with hashes, for CPython 3.11-3.13.
LOCK := requirements/book.lock
# Another x86-64 CPU, emulated: NumPy without AVX/AVX2/AVX-512/FMA code paths and
# OpenBLAS's Nehalem kernels; last bits of SIMD maths and BLAS products change.
EMULATE_CPU := NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX2 FMA3 F16C AVX" OPENBLAS_CORETYPE=Nehalem
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:randomly

help:
	@echo "make book         install into .venv and build the HTML site (_build/html) from committed outputs"
	@echo "make test         install and run every check (unit, notebook pairs, nbval, the same on an"
	@echo "                  emulated older CPU, warning-free build, browser check, clean work tree)"
	@echo "make test-matrix  unit tests on every CPython 3.11-3.13 found, newest dependencies; nbval on one"
	@echo "make reproduce    recompute every committed result table and re-execute every chapter"
	@echo "make table NAME=limo_benchmark   recompute one committed table (re-executes its chapter)"
	@echo "make chapter NB=book/losses.md   re-execute one chapter and write its outputs"
	@echo "make bench        speed comparisons against reference implementations"
	@echo "make lock         re-resolve $(LOCK) after changing the dependencies in pyproject.toml"

install: $(STAMP)

$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check
	@touch $@

# Re-resolve the lock: the pins already in it are kept (uv prefers them) unless a
# changed requirement forces another version.
lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet 'uv>=0.5,<1'
	$(BIN)/uv pip compile pyproject.toml --extra book --extra test --universal \
	  --python-version 3.11.5 --generate-hashes --custom-compile-command "make lock" --quiet -o $(LOCK)

book: $(STAMP)
	$(BIN)/jupyter-book build . --builder html
	@echo "open _build/html/index.html"

# ---------------------------------------------------------------- checks
test: $(STAMP)
	@t0=$$(date +%s); for stage in unit pairs notebooks portable site browser pdf pdfcheck clean-tree; do \
	  s=$$(date +%s); $(MAKE) --no-print-directory $$stage || exit 1; \
	  echo "make test: stage $$stage took $$(( $$(date +%s) - s )) s"; done; \
	  echo "make test: all checks passed in $$(( $$(date +%s) - t0 )) s"

unit: $(STAMP) clus
	$(BIN)/python -m pytest tests --ignore=tests/browser --ignore=tests/test_notebook_pairs.py \
		--ignore=tests/test_pdf.py -q

pairs: $(STAMP)
	$(BIN)/python -m pytest tests/test_notebook_pairs.py -q

notebooks: $(STAMP)
	$(BIN)/python -m pytest $(NBVAL) book -q

# The recompute tests and nbval again, on an emulated CPU unlike this one: a pass on
# one machine must be a pass on others.
portable: $(STAMP)
	$(EMULATE_CPU) $(BIN)/python -m pytest tests -m recompute -q
	$(EMULATE_CPU) $(BIN)/python -m pytest $(NBVAL) book -q

site: $(STAMP)
	rm -rf _build/html _build/.doctrees
	$(BIN)/jupyter-book build . --builder html --all -W --keep-going

browser: $(STAMP) chromium
	$(BIN)/python -m pytest tests/browser -q

# No check may write into the repository: tracked files unchanged, nothing untracked.
clean-tree:
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  dirty=$$(git status --porcelain --untracked-files=all); \
	  if [ -n "$$dirty" ]; then echo "the checks changed the work tree:"; echo "$$dirty"; exit 1; fi; \
	  echo "work tree clean"; else echo "not a git checkout: clean-tree check not applicable"; fi

# Unit tests on every CPython 3.11-3.13 found (PATH, pyenv), each in a fresh venv with the
# newest releases the requirements allow; nbval on the first; then a researcher's venv
# that already holds numpy 2.4 and scikit-learn 1.8 must keep them when installing mlcbook.
test-matrix:
	$(PYTHON) tools/matrix.py

chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium for the browser check"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# PCT/EPCT run the authors' Clus.jar on Java: Debian's headless JRE if no java is found, and
# the jar from the authors' repository at the pinned commit (sha256-verified, cached in
# data/cache/; MLCBOOK_CLUS_JAR=/path/Clus.jar uses a local copy, verified the same way).
clus: $(STAMP)
	@command -v java >/dev/null || { \
	  echo "installing Debian's headless Java runtime for CLUS"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq default-jre-headless >/dev/null; }
	@$(BIN)/python -c 'from mlcbook.learners.clus import clus_jar; clus_jar()'

# ---------------------------------------------------------------- outputs
# the all-ledgers page reads the ledgers the chapters save, so it runs last
REPRODUCE := $(filter-out book/ledgers.md,$(CHAPTERS)) book/ledgers.md

reproduce: $(STAMP) clus
	@for nb in $(REPRODUCE); do \
	  MLCBOOK_RECOMPUTE=1 $(MAKE) --no-print-directory chapter NB=$$nb || exit 1; \
	done

# Recompute one committed table: its provenance names the chapter that makes it.
table: $(STAMP)
	@test -n "$(NAME)" || { echo "usage: make table NAME=limo_benchmark"; exit 2; }
	@nb=$$($(BIN)/python -c 'import json,sys; print(json.load(open(sys.argv[1])).get("chapter") or "")' \
	  data/results/$(NAME).json 2>/dev/null); \
	test -n "$$nb" || { echo "data/results/$(NAME).json names no chapter; run make reproduce"; exit 2; }; \
	MLCBOOK_RECOMPUTE=$(NAME) $(MAKE) --no-print-directory chapter NB=$$nb

# execute a chapter, write outputs to its paired .ipynb, drop per-cell timing metadata (noise in diffs)
define execute_chapter
	touch $(1)  # the .md is the source: jupytext --sync takes the newer file of the pair
	MLCBOOK_CHAPTER=$(1) MLCBOOK_WRITE_OUTPUTS=1 $(BIN)/jupytext --sync --execute $(1)
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
