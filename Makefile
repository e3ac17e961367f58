# Two commands on a fresh clone: `make demo` opens the debugger on a built-in example,
# `make test` installs what the tests need and runs the whole suite.
VENV ?= .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed
# -qq: pip prints errors only (a machine's pip configuration can add a page of harmless warnings).
PIP := $(PY) -m pip install -qq

.PHONY: demo test lint format bench docs clean

# What the debugger needs to run: enough for `make demo`, so the first screen comes quickly.
$(RUNTIME): pyproject.toml
	@echo "make: installing minigrad and what it runs on into $(VENV) (once)..."
	@python3 -m venv $(VENV)
	@$(PIP) -e .
	@touch $(RUNTIME)

# What the tests need besides: the dev extras, the PyTorch oracle, tmux and Chromium.
$(STAMP): $(RUNTIME)
	@echo "make: installing the test tools into $(VENV) (once)..."
	@$(PIP) -e '.[dev]'
	@# PyTorch is an optional oracle: install the local CPU wheel when the machine has one, never a download.
	@$(PIP) --no-index --no-deps 'torch==2.13.0' 2>/dev/null \
		|| echo "note: no local PyTorch 2.13.0 wheel; PyTorch parity tests will be skipped"
	@command -v tmux >/dev/null || (apt-get update -qq && apt-get install -y -qq tmux >/dev/null) \
		|| echo "note: tmux unavailable; the real-terminal debugger test will be skipped"
	@# Headless Chromium runs the HTML player's behaviour tests.
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
		|| echo "note: chromium unavailable; the HTML player's browser test will be skipped"
	touch $(STAMP)

demo: $(RUNTIME)
	$(VENV)/bin/minigrad-tui

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format . && $(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) -m bench

# The course (lessons/ read at build time) and the API reference as a static site in build/site.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
