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
# the book as one PDF, and what it is printed from (`make book` prints it again when one
# of these is newer; book/_ext/downloads.py offers it on the site only then)
PDF := _build/pdf/mlcbook.pdf
PDF_SOURCES := $(wildcard book/*.ipynb) book/references.bib $(wildcard _static/*) \
               $(wildcard book/_ext/*.py) $(wildcard book/_ext/*.js) _toc.yml _config.yml \
               $(wildcard book/_ledgers/*.csv) CITATION.cff

# Executed chapters must print nothing time-dependent: no progress bars, fixed hash seed.
export MLCBOOK_PROGRESS := 0
export PYTHONHASHSEED := 0
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# Byte-code caches (__pycache__/, git-ignored) even where the environment turns them off:
# every worker, kernel and command the checks start imports the packages again, and
# pytest rewrites the test modules again in each worker (collecting every test took 9.1
# CPU-s without the caches, 4.5 with them).
unexport PYTHONDONTWRITEBYTECODE
# One BLAS/OpenMP thread per process: the checks run two workers on two cores (and the
# runner one process per core), and OpenBLAS's own threads, which spin while they wait,
# then fight the workers for the cores: a 5-fold cross-validation of the own_predictions
# chapter took 57 s on a loaded 2-core machine with OpenBLAS's threads, 1.8 s without.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
# The book reads and caches data inside the checkout: the library's data home is the
# git-ignored data/cache, its mirror ../shared/datasets when present (mlcrepro sets the
# same defaults when a chapter imports it outside make).
export MLCBOOK_DATA ?= $(CURDIR)/data/cache
ifneq ($(wildcard $(CURDIR)/../shared/datasets),)
export MLCBOOK_DATA_MIRROR ?= $(abspath $(CURDIR)/../shared/datasets)
endif

.PHONY: help install lock book test lint unit wheel java pairs notebooks portable portable-tests portable-notebooks handouts site browser clean-tree \
        test-matrix newest reproduce reproduce-quick reproduce-plan table chapter bench clean chromium weka

# The book's environment: every package pinned, with hashes, for CPython 3.11-3.13.
LOCK := requirements/book.lock
# Another x86-64 CPU, emulated: NumPy without AVX/AVX2/AVX-512/FMA code paths and
# OpenBLAS's Nehalem kernels; last bits of SIMD maths and BLAS products change.
EMULATE_CPU := NPY_DISABLE_CPU_FEATURES="AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX2 FMA3 F16C AVX" OPENBLAS_CORETYPE=Nehalem
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:randomly
# two pytest-xdist workers, one notebook (or test file) per worker at a time
XDIST := -n 2 --dist loadfile

help:
	@echo "make book         install into .venv and build the HTML site (_build/html) from committed outputs"
	@echo "make test         install and run every check (ruff and mypy, unit, Java learners, notebook pairs, nbval and"
	@echo "                  the recompute tests on an emulated older CPU, warning-free build, browser check, PDF,"
	@echo "                  clean work tree)"
	@echo "make test-matrix  unit tests on every CPython 3.11-3.13 found, newest dependencies; nbval on one"
	@echo "make reproduce    recompute every committed table from scratch through the runner (a dask"
	@echo "                  cluster: DASK_SCHEDULER=tcp://host:8786, else this machine's cores; COLD=1"
	@echo "                  empties the cache; PAPER=key: one paper's tables, a part of the rebuild),"
	@echo "                  report to data/results/REPRODUCE.md, re-execute the pages"
	@echo "make reproduce-quick   recompute a declared sample of every table's cells (one dataset, one"
	@echo "                  seed or fold) and judge each table against its committed rows; writes nothing"
	@echo "make reproduce-plan    print each table's cells, those cached, measured CPU-s and expected"
	@echo "                  wall time (WORKERS=N, COLD=1), before anything runs"
	@echo "make table NAME=limo_benchmark   recompute one committed table and its paper's pages"
	@echo "                  (limo_authors_octave and _runs run the authors' code under Octave first)"
	@echo "make chapter NB=book/losses.md   re-execute one chapter and write its outputs"
	@echo "make bench        speed comparisons against reference implementations"
	@echo "make lock         re-resolve $(LOCK) after changing the dependencies in pyproject.toml"

install: $(STAMP)

$(STAMP): pyproject.toml repro/pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# uv installs the locked wheels in seconds where pip takes half a minute; uv itself
	@# comes from the lock (its pinned version and hashes), installed by pip
	@$(BIN)/python -c 'import re, sys; t = open(sys.argv[1]).read(); \
	  sys.stdout.write(re.search(r"^uv==.*?\n(?=\S)", t, re.M | re.S).group(0))' $(LOCK) > $(VENV)/uv.txt
	$(BIN)/python -m pip install --quiet --no-compile --require-hashes --no-deps -r $(VENV)/uv.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python --require-hashes --no-deps -r $(LOCK)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e . -e repro
	@# pip byte-compiles file by file (about 20 s of a 35-s install); compileall writes the
	@# same caches on every core in about 3 s
	$(BIN)/python -m compileall -q -j 0 $$($(BIN)/python -c \
	  'import sysconfig; print(sysconfig.get_paths()["purelib"])') >/dev/null
	$(BIN)/python -m pip check
	@touch $@

# Re-resolve the lock: the pins already in it are kept (uv prefers them) unless a
# changed requirement forces another version.
lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet 'uv>=0.5,<1'
	$(BIN)/uv pip compile pyproject.toml --extra book --extra test --extra lint --universal \
	  --python-version 3.11.5 --generate-hashes --custom-compile-command "make lock" --quiet -o $(LOCK)

# The site carries its code (book/_ext/downloads.py): the source archive, both wheels and
# the PDF, which is printed first when a page changed since the last one (Chromium and
# poppler-utils from Debian when missing): about 3 minutes more on 2 cores then, a few
# seconds (archive and wheels) when the PDF is current.
book: $(STAMP) $(PDF)
	$(BIN)/jupyter-book build . --builder html
	@echo "open _build/html/index.html"

# ---------------------------------------------------------------- checks
# The stages run side by side, at most three at a time, each as soon as the stages it
# needs have passed (tools/stages.py; `python tools/stages.py --plan` prints the order):
# the reproduction's tests on the emulated CPU and the chain pdf -> site -> browser and
# notebooks (on the emulated CPU; they run the handouts the site wrote) first, the short
# stages in the gaps, clean-tree last.  What installs software runs first: Debian's
# packages (Chromium, poppler, the JDK and Weka, one after another: one apt lock) while
# pip fills .venv; apt's output is printed when both are done.
test:
	@mkdir -p _build/test-logs; log=_build/test-logs/system-packages.log; \
	$(MAKE) --no-print-directory chromium poppler weka >$$log 2>&1 & apt=$$!; \
	$(MAKE) --no-print-directory install || { wait $$apt; exit 1; }; \
	if wait $$apt; then cat $$log; else cat $$log; echo "make test: installing Debian's packages failed"; exit 1; fi; \
	$(BIN)/python tools/stages.py

# Static checks of the library: ruff (lint and format) and mypy, configured in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check lib repro
	$(BIN)/ruff format --check lib repro
	$(BIN)/mypy

# Two workers (pytest-xdist), one per core of the CI machine; a test file stays on one
# worker so that its module fixtures (fitted models) are made once.  The library's tests
# need no Java; the book's checks have stages of their own.  Every docstring example of
# both packages runs as a doctest (in a temporary folder, see conftest.py).  The
# reproduction's tests (tests/mlcrepro) and the tests marked recompute run in `portable`,
# on the emulated CPU (see there); `make test-matrix` runs them natively.
unit: $(STAMP)
	$(BIN)/python -m pytest tests/mlcbook tests/book/test_chapter_cells.py \
		tests/book/test_chapter_findings.py tests/book/test_learn_chapters.py \
		tests/book/test_handout_markup.py tests/book/test_downloads.py tests/book/test_stages.py \
		tests/book/test_reading_load.py \
		--doctest-modules lib/mlcbook repro/mlcrepro -q $(XDIST) -m "not portable"

# The library as a researcher installs it: its wheel holds mlcbook only, and a non-editable
# install in a fresh venv (dependencies from .venv) fetches a dataset into ~/.cache/mlcbook.
wheel: $(STAMP)
	$(BIN)/python -m pytest tests/install -q

# The learners that run Java: Weka's J48 (and MEKA's RAkEL on it), CLUS.  Its recompute
# test runs in `portable` (with Java: `portable` needs weka).
java: $(STAMP) weka
	$(BIN)/python -m pytest tests/java -q $(XDIST) -m "not portable"

pairs: $(STAMP)
	$(BIN)/python -m pytest tests/book/test_notebook_pairs.py -q

# The notebooks nbval executes, each in a fresh kernel: every page of the book without
# exercises, here in the book's environment; a chapter with exercises as its two handouts
# (students' and solutions'), which together hold every cell of the chapter once, in a
# fresh environment built from the site's wheels with the network off (`handouts`,
# tests/install/handouts.py; the site must be built first).
PAGES = nbs=$$($(BIN)/python tests/book/notebooks.py --pages) || exit 1
HANDOUTS_RUN = $(BIN)/python tests/install/handouts.py

# nbval on this machine's CPU; not a stage of `make test`, whose `portable-notebooks` and
# `handouts` compare the same committed outputs with the same sanitizers on the emulated
# CPU (see there).
notebooks: $(STAMP)
	@$(PAGES); $(BIN)/python -m pytest $(NBVAL) $(XDIST) $$nbs -q
	$(HANDOUTS_RUN)

# The comparisons with committed numbers -- the recompute tests (a slice of each committed
# result table refitted), nbval (every chapter re-executed against its committed
# outputs) and every test of the reproduction (tests/mlcrepro: committed tables, ledgers
# and the authors' numbers, and cells recomputed inside tests not marked recompute) --
# run once in `make test`, on an emulated CPU unlike the one that wrote them: the
# outputs were made on an AVX-512 machine, and here NumPy takes its SSE-only paths and
# OpenBLAS its Nehalem kernels, the CPU least like it, so a pass shows the printed numbers
# do not hang on the CPU's SIMD paths.  (The whole reproduction suite, not only what is
# marked recompute: BR-LIBLINEAR's cell of limo_authors_baselines, recomputed by a test
# without the marker, failed only here.)  Running them natively as well (in `unit`,
# `java` and `notebooks`) would cost about four more minutes on CI's 2 cores; a failure
# that only the CI CPU's own paths would show is left to `make notebooks` and
# `make test-matrix`, which run nbval and every test natively (test-matrix on every
# CPython, newest deps).  conftest.py marks them all `portable`, so that none is left
# to the native CPU by a missing marker.  A chapter with
# exercises runs as its two handouts (see NOTEBOOKS), so that each handout is shown to run
# in a fresh kernel at no more cost than the chapter itself.
portable: portable-tests portable-notebooks handouts

# its two halves, stages of `make test` of their own: the tests need only the sources (they
# run beside the site's build), the notebooks need the handouts the site writes
portable-tests: $(STAMP) weka
	$(EMULATE_CPU) $(BIN)/python -m pytest -p no:randomly $(XDIST) tests -m portable -q

portable-notebooks: $(STAMP)
	@$(PAGES); $(EMULATE_CPU) $(BIN)/python -m pytest $(NBVAL) $(XDIST) $$nbs -m portable -q

# The 16 handouts as a student runs them: the one install line they print, run in a fresh
# venv from the wheels the site built (library, reproduction with its tables, data bundle),
# then every handout with nbval in that venv, network off (unshare -n), emulated CPU.
handouts: $(STAMP)
	$(EMULATE_CPU) $(HANDOUTS_RUN)

site: $(STAMP)
	rm -rf _build/html _build/.doctrees
	$(BIN)/jupyter-book build . --builder html --all -W --keep-going

# Two workers, each with its own Chromium, dealt the checks one by one: each page is loaded
# once in the run, at 1280 px and then narrowed to 390 px (tests/book/browser/visit.py),
# by the worker that first asks for it; the other reads its facts from their shared folder.
browser: $(STAMP) chromium
	$(BIN)/python -m pytest tests/book/browser -q -n 2 --dist load

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

# A slice of the matrix in every `make test`: the library's and the reproduction's tests
# (not the refits of committed tables, not BOOMER, not Java) on the newest CPython found,
# with the newest releases the requirements allow, in _build/newest-venv (upgraded eagerly
# on every run), so that a new pandas or numpy that breaks a test fails `make test` the day
# it is out (tools/matrix.py --newest).
newest: $(STAMP)
	$(BIN)/python tools/matrix.py --newest

chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium for the browser check"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Weka's J48 for the study's BR/CC/LP/RAkEL (mlcbook.learners.j48): Debian's weka package,
# downloaded (not installed) and unpacked into the git-ignored .weka/, both the package and
# the jar checked against their sha256; a JDK (java + javac) from Debian when missing.
WEKA_DEB        := weka_3.6.14-3_all.deb
WEKA_DEB_SHA256 := 58ea5ec3b42ca9719be5756d1bd64ebed0e69d16d6fffa200b3cebf4ccccab16
WEKA_JAR        := .weka/usr/share/java/weka-3.6.14.jar
WEKA_JAR_SHA256 := fcdc5315cb9054b396d2e1bac7e007800b01b3d2221cca6afb065f6821e60b42

weka:
	@SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	if ! command -v java >/dev/null || ! command -v javac >/dev/null; then \
	  echo "installing Debian's default-jdk-headless for Weka's J48"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq default-jdk-headless >/dev/null; fi; \
	if ! echo "$(WEKA_JAR_SHA256)  $(WEKA_JAR)" | sha256sum --check --status 2>/dev/null; then \
	  echo "downloading Debian's $(WEKA_DEB) into .weka/"; \
	  rm -rf .weka && mkdir -p .weka/tmp; \
	  ( cd .weka/tmp && { apt-get download -qq weka=3.6.14-3 2>/dev/null || \
	    { $$SUDO apt-get update -qq && apt-get download -qq weka=3.6.14-3; }; } ); \
	  echo "$(WEKA_DEB_SHA256)  .weka/tmp/$(WEKA_DEB)" | sha256sum --check --quiet; \
	  dpkg -x .weka/tmp/$(WEKA_DEB) .weka && rm -rf .weka/tmp; \
	  echo "$(WEKA_JAR_SHA256)  $(WEKA_JAR)" | sha256sum --check --quiet; fi

# The authors' LIMO code (Wu & Zhou 2017, ../shared/reference/wu_zhou2017) under GNU Octave:
# Debian's octave, octave-statistics and octave-dev when missing (root or sudo), LIBSVM's
# MATLAB interface built into data/cache/octave, demo.m run for each seed and data set in
# a patched temporary copy (resumes: finished runs are kept in data/cache/octave/runs);
# `make table NAME=limo_authors_octave` (or make reproduce) then writes the committed
# tables limo_authors_octave{,_runs} from the finished (seed, data set) runs.
# `make octave SEEDS="1 2"` runs other seeds; make test never needs Octave.
octave: $(STAMP)
	@SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	if ! command -v octave-cli >/dev/null || ! command -v mkoctfile >/dev/null || \
	   ! octave-cli --no-gui --eval "pkg load statistics" >/dev/null 2>&1; then \
	  echo "installing Debian's octave, octave-statistics, octave-dev"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    --no-install-recommends octave octave-statistics octave-dev >/dev/null; fi
	$(BIN)/mlcrepro octave build
	nice -n 15 $(BIN)/mlcrepro octave run --seeds $(or $(SEEDS),1 2 3 4 5) \
	  --log data/cache/octave/octave.log

# ---------------------------------------------------------------- outputs
# Rebuild every committed table from scratch through the runner (`mlcrepro reproduce`):
# all tables' cells in one pass, one progress display, on the dask.distributed cluster at
# DASK_SCHEDULER (make reproduce DASK_SCHEDULER=tcp://host:8786, after `dask scheduler` and
# `dask worker tcp://host:8786` as the README says) or else a local cluster
# of this machine's cores; each cell cached as it finishes, so a killed run resumes
# (COLD=1 starts from an empty cache); each table compared with the committed one and
# every ledger rebuilt from the new tables, in a report printed and written to
# data/results/REPRODUCE.md; then every page that reads the tables is executed again.
# The authors' LIMO runs under Octave come first (make octave).  A cold rebuild outlasts
# a short-lived machine: PAPER=park_read2018 (or huellermeier2022, wu_zhou2017) rebuilds
# one paper's tables as a part, whose record (data/results/rebuild/PAPER.json) the report
# is assembled from with the other parts' (mlcrepro.rebuild_parts).  The run records
# only a cold part: COLD=1 first, then resumed without it.
reproduce: $(STAMP) weka $(if $(filter-out huellermeier2022 park_read2018,$(or $(PAPER),all)),octave)
	MLCBOOK_PROGRESS=1 $(BIN)/mlcrepro reproduce --write --record $(if $(PAPER),--paper $(PAPER)) \
	  $(if $(DASK_SCHEDULER),--scheduler $(DASK_SCHEDULER)) $(if $(COLD),--fresh)
	@for nb in $$($(BIN)/mlcrepro pages $(if $(PAPER),--paper $(PAPER))); do \
	  $(MAKE) --no-print-directory chapter NB=$$nb || exit 1; done

# What `make reproduce` would compute, before anything runs: per table its cells, those
# cached, their measured CPU-s and the expected wall time on WORKERS (default: the cores).
reproduce-plan: $(STAMP)
	$(BIN)/mlcrepro reproduce --plan $(if $(WORKERS),--workers $(WORKERS)) $(if $(COLD),--fresh)

# The quick tier: each table's declared sample of cells (one dataset, one seed, fold or
# split; mlcrepro.quick) recomputed afresh in a temporary cache and judged against the
# committed rows within the table's tolerance; a verdict per table, nothing written.
reproduce-quick: $(STAMP) weka
	MLCBOOK_PROGRESS=1 $(BIN)/mlcrepro reproduce --quick \
	  $(if $(DASK_SCHEDULER),--scheduler $(DASK_SCHEDULER)) $(if $(WORKERS),--workers $(WORKERS))

# Recompute one committed table through the runner and execute the pages of its paper
# (`mlcrepro pages --table NAME`); the Octave ones run the authors' code first.
table: $(STAMP) weka
	@test -n "$(NAME)" || { echo "usage: make table NAME=limo_benchmark"; exit 2; }
	@$(BIN)/mlcrepro pages --table $(NAME) >/dev/null
	@case "$(NAME)" in limo_authors_octave|limo_authors_octave_runs) \
	  $(MAKE) --no-print-directory octave;; esac
	MLCBOOK_PROGRESS=1 $(BIN)/mlcrepro reproduce $(NAME) --write --no-ledgers \
	  $(if $(DASK_SCHEDULER),--scheduler $(DASK_SCHEDULER))
	@for nb in $$($(BIN)/mlcrepro pages --table $(NAME)); do \
	  $(MAKE) --no-print-directory chapter NB=$$nb || exit 1; done

# execute a chapter, write outputs to its paired .ipynb, drop per-cell timing metadata (noise in diffs);
# first write the ledgers the page shows (none for a page that is not a Reproduce page): the
# page itself only checks that what it computes is the committed ledger
define execute_chapter
	touch $(1)  # the .md is the source: jupytext --sync takes the newer file of the pair
	$(BIN)/mlcrepro ledgers --write $(1)
	MLCBOOK_CHAPTER=$(1) $(BIN)/jupytext --sync --execute $(1)
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
# The book's reading pages as one PDF: the single-page HTML build of _toc.yml without the API
# reference (book/_ext/print_pdf.py toc), printed by Debian's Chromium through Playwright
# (the site's own MathJax, figures and HTML tables, print CSS of _static/mlcbook.css): a
# title page, contents with page numbers (two passes), bookmarks, page numbers. No LaTeX
# toolchain, no browser download; poppler-utils gives pdftotext for the page numbers and
# for tests/book/test_pdf.py.
PDF_TOC := _build/pdf/_toc.yml
.PHONY: pdf pdfcheck poppler dist

$(PDF): $(PDF_SOURCES) | $(STAMP)
	$(MAKE) --no-print-directory pdf

pdf: $(STAMP) chromium poppler
	rm -rf _build/singlehtml
	$(BIN)/python book/_ext/print_pdf.py toc _toc.yml $(PDF_TOC)
	$(BIN)/jupyter-book build . --builder singlehtml --toc $(PDF_TOC)
	$(BIN)/python book/_ext/print_pdf.py print _build/singlehtml $(PDF)
	@pdfinfo $(PDF) | grep -E '^Pages'

poppler:
	@command -v pdftotext >/dev/null || { \
	  echo "installing Debian's poppler-utils for the PDF check"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] && echo "" || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq poppler-utils >/dev/null; }

# checks the PDF that `make pdf` built (fails, never skips, when it is missing)
pdfcheck: $(STAMP) poppler
	$(BIN)/python -m pytest tests/book/test_pdf.py tests/book/test_pdf_prose.py -q

# ---------------------------------------------------------------- dist
# Wheels of the library (mlcbook), of the reproduction (mlcbook-repro, package mlcrepro,
# with the committed result tables as package data) and the data bundle (mlcbook-data) into
# dist/, as the site's "Get the code" builds them (book/_ext/downloads.py): from a copy of
# the sources in a temporary folder (setuptools' build/ and egg-info stay out of the
# checkout); dist/ ignores itself. Install elsewhere with `pip install dist/*.whl`.
dist: $(STAMP)
	@mkdir -p dist && echo '*' > dist/.gitignore; \
	$(BIN)/python book/_ext/downloads.py wheels dist
