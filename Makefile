# Two commands on a fresh clone: `make demo` opens the debugger on a built-in example,
# `make test` installs what the tests need and runs the whole suite.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint format bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -e '.[dev]'
	@# PyTorch is an optional oracle: install the local CPU wheel when the machine has one, never a download.
	@$(PY) -m pip install -q --no-index --no-deps 'torch==2.13.0' 2>/dev/null \
		|| echo "note: no local PyTorch 2.13.0 wheel; PyTorch parity tests will be skipped"
	@command -v tmux >/dev/null || (apt-get update -qq && apt-get install -y -qq tmux >/dev/null) \
		|| echo "note: tmux unavailable; the real-terminal debugger test will be skipped"
	@# Headless Chromium runs the HTML player's behaviour tests.
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
		|| echo "note: chromium unavailable; the HTML player's browser test will be skipped"
	touch $(STAMP)

demo: $(STAMP)
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

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
