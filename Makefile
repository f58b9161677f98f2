# The two commands of the README: `make lab` and `make test`.  Both set up first:
# a virtual environment in .venv with the package and its extras, and Graphviz's `dot`.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup graphviz browser lab test test-versions bench bench-tf bench-tensorboard check-tf clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

graphviz:
	@if ! command -v dot >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Graphviz (Debian package 'graphviz')..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends graphviz >/dev/null; \
	  else \
	    echo "Graphviz 'dot' is missing: install it with 'sudo apt-get install graphviz' (Debian/Ubuntu), 'brew install graphviz' (macOS) or 'conda install graphviz'; graphs then show as DOT text."; \
	  fi; \
	fi

# Debian's Chromium and CJK fonts, for the browser tests of the widgets (Playwright drives it;
# no download)
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium (Debian package 'chromium') for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	  else \
	    echo "Chromium is missing: the browser tests need 'sudo apt-get install chromium'."; \
	  fi; \
	fi
	@if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing CJK fonts (Debian package 'fonts-noto-cjk') for the zh screenshots..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null; \
	  else \
	    echo "CJK fonts are missing: zh widgets show boxes; 'sudo apt-get install fonts-noto-cjk'."; \
	  fi; \
	fi

setup: $(STAMP) graphviz

ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# JupyterLab opens on the index; Jupyter Notebook 7 (installed too) is at /tree on the same server
lab: setup
	$(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir=notebooks --LabApp.default_url=/lab/tree/index.ipynb

test: setup browser
	$(BIN)/ruff check tfgraph_edu tests benchmarks notebooks/build.py
	$(BIN)/python -m pytest

bench: setup
	@for f in benchmarks/[!_]*.py; do [ $$f = benchmarks/tensorboard_side_by_side.py ] && continue; \
	  echo "== $$f"; $(BIN)/python $$f || exit 1; done

# Optional, not part of `make bench`: TensorBoard's graph dashboard and the viewer side by side
# in Chromium on four functions (issue 24); needs .venv-tf from `make check-tf` (TensorFlow and
# TensorBoard stay there); screenshots and figures in benchmarks/artifacts/
bench-tensorboard: setup browser
	@test -x .venv-tf/bin/tensorboard || { echo "needs .venv-tf with TensorBoard: run 'make check-tf' first"; exit 1; }
	PYTHONPATH=$(CURDIR) $(BIN)/python benchmarks/tensorboard_side_by_side.py

# Optional, not part of `make test`: real TensorFlow and JAX side by side, in their own venv
# (TensorFlow never enters the product's dependencies or .venv).
bench-tf:
	@test -x .venv-tf/bin/python || $(PY) -m venv .venv-tf
	.venv-tf/bin/python -m pip install --quiet --upgrade pip
	.venv-tf/bin/python -m pip install --quiet tensorflow-cpu jax -e .
	.venv-tf/bin/python benchmarks/against_tf/compare.py

# Optional, not part of `make test`: the classroom benchmark through a real JupyterHub on
# localhost. Node.js/npm from Debian when missing; configurable-http-proxy from npm into
# .classroom/ (this checkout only, nothing global); the [classroom] extra into .venv.
# `make classroom LEARNERS=5,10,20` measures what docs/teaching.md states.
.PHONY: classroom
LEARNERS ?= 2
CHP := .classroom/node_modules/.bin/configurable-http-proxy
classroom: setup
	@if ! command -v npm >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Node.js and npm (Debian packages 'nodejs', 'npm') for configurable-http-proxy..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null; \
	  else \
	    echo "npm is missing: install Node.js with 'sudo apt-get install nodejs npm' (Debian/Ubuntu) or 'brew install node' (macOS), then run 'make classroom' again."; \
	    exit 1; \
	  fi; \
	fi
	@if [ ! -x $(CHP) ]; then \
	  major=$$(node -p 'process.versions.node.split(".")[0]'); \
	  if [ "$$major" -ge 20 ]; then v=5; else v=4; fi; \
	  echo "Installing configurable-http-proxy@$$v (npm) into .classroom/ for Node.js $$major..."; \
	  npm install --prefix .classroom --no-audit --no-fund --loglevel=error configurable-http-proxy@$$v >/dev/null; \
	fi
	$(BIN)/python -m pip install --quiet -e '.[dev,classroom]'
	$(BIN)/python benchmarks/classroom.py --hub -n $(LEARNERS)

# Optional, not part of `make test`: the same programs under real TensorFlow and tfgraph_edu,
# compared value by value, and our graphs exported as GraphDefs loaded and run by TF and
# TensorBoard (benchmarks/against_tf/README.md)
check-tf:
	@test -x .venv-tf/bin/python || $(PY) -m venv .venv-tf
	.venv-tf/bin/python -m pip install --quiet --upgrade pip
	.venv-tf/bin/python -m pip install --quiet tensorflow-cpu jax hypothesis pytest jupytext matplotlib ipython pandas scikit-learn -e '.[tf-files,jupyter]'
	PYTHONPATH=$(CURDIR) .venv-tf/bin/python benchmarks/against_tf/differential.py $(ARGS)
	PYTHONPATH=$(CURDIR) .venv-tf/bin/python benchmarks/against_tf/graph_files.py
	PYTHONPATH=$(CURDIR) .venv-tf/bin/python -m pytest -o addopts="" tests/formats/test_live_tf.py \
	  tests/jupyter/test_trace_tf.py tests/jupyter/test_trace_tf_without_tf.py
	@if [ -n "$(DOCS)" ]; then \
	  PYTHONPATH=$(CURDIR) .venv-tf/bin/python benchmarks/against_tf/differential.py guides --docs "$(DOCS)" $(GUIDES_ARGS); \
	else \
	  echo "guides: not run. Give a tensorflow/docs copy: git clone --depth 1 https://github.com/tensorflow/docs /path/to/docs; make check-tf DOCS=/path/to/docs"; \
	fi
	@if [ -n "$(COURSE_REPO)" ]; then \
	  PYTHONPATH=$(CURDIR) .venv-tf/bin/python benchmarks/against_tf/differential.py courses --repo "$(COURSE_REPO)" \
	    $(if $(COURSE_FOLDER),--folder "$(COURSE_FOLDER)",--notebooks "$(COURSE_NOTEBOOKS)") $(GUIDES_ARGS); \
	fi

# The ends of what pyproject.toml declares, each in its own cached venv (.venv-3.10, .venv-3.13)
# made from the project's files: the oldest Python with the lowest numpy declared (the rest
# as pip resolves it for that Python), and the newest Python with the newest numpy (upgraded on
# every run, so the check follows new releases).
NUMPY_FLOOR := $(shell sed -n 's/.*"numpy>=\([0-9.]*\)".*/\1/p' pyproject.toml)
FLOOR_PY := 3.10
NEWEST_PY := 3.13
PYENV_ROOT ?= $(HOME)/.pyenv

.venv-%/.installed: pyproject.toml
	@py=""; for c in python$* $(PYENV_ROOT)/versions/$*.*/bin/python$*; do \
	  if $$c -c "" >/dev/null 2>&1; then py=$$c; break; fi; done; \
	if [ -z "$$py" ]; then echo "Python $* is missing: install it (e.g. 'pyenv install $*'), then run 'make test-versions' again."; exit 1; fi; \
	test -x .venv-$*/bin/python || $$py -m venv .venv-$*
	.venv-$*/bin/python -m pip install --quiet --upgrade pip
	.venv-$*/bin/python -m pip install --quiet -e '.[dev]' \
	  $(if $(filter $(FLOOR_PY),$*),numpy==$(NUMPY_FLOOR),)
	@touch $@

# Left unchecked on the floor: nothing (tutorial 8's plot is a PNG, which nbval does not
# compare; its SVG, which matplotlib 3.10 writes differently, is no longer stored).
FLOOR_SKIP :=
# Left out on the newest: the browser tests (3-4 minutes). Its Jupyter stack (JupyterLab,
# ipywidgets, anywidget, IPython 9) is the one `make test` drives in Chromium already; the
# floor's differs (IPython 8), so they run there.
NEWEST_SKIP := -m "not browser"

test-versions: .venv-$(FLOOR_PY)/.installed .venv-$(NEWEST_PY)/.installed graphviz browser
	.venv-$(NEWEST_PY)/bin/python -m pip install --quiet --upgrade numpy
	@failed=""; \
	for v in $(FLOOR_PY) $(NEWEST_PY); do \
	  .venv-$$v/bin/python -c 'import sys, numpy; print(f"== Python {sys.version.split()[0]}, numpy {numpy.__version__}")'; \
	  if [ $$v = $(FLOOR_PY) ]; then set -- $(FLOOR_SKIP); else set -- $(NEWEST_SKIP); fi; \
	  .venv-$$v/bin/python -m pytest "$$@" || failed="$$failed $$v"; \
	done; \
	if [ -n "$$failed" ]; then echo "make test-versions: the suite failed on Python$$failed"; exit 1; fi

clean:
	rm -rf $(VENV) .venv-tf .venv-3.* .classroom .pytest_cache .ruff_cache .mypy_cache .hypothesis build dist *.egg-info
