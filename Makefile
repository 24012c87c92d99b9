# The verbs people expect. Each one creates .venv on first use (python3 -m venv) and
# reinstalls only when pyproject.toml changed.
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test lint bench

$(INSTALLED): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

## run: migrate, then API server + Celery worker + beat in the foreground (Ctrl-C stops all)
run: $(INSTALLED)
	$(PY) deploy/runall.py

## test: the whole suite (pass options with PYTEST_ARGS="-k health -x")
test: $(INSTALLED)
	$(PY) -m pytest $(PYTEST_ARGS)

## lint: ruff (lint + format), import contracts, mypy on the engine
lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy games/engine

## bench: benchmarks (never part of the tests)
bench: $(INSTALLED)
	$(PY) -m bench $(BENCH_ARGS)
