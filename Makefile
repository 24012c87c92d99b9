# The verbs people expect. Each one creates .venv on first use (python3 -m venv) and
# reinstalls only when pyproject.toml changed.
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
# What is installed into the virtualenv (tests/test_makefile.py sets it to stay offline).
PIP_INSTALL := install --quiet -e '.[dev]'
# Runs a command holding an exclusive lock on a file (flock(2), from Python: no util-linux).
WITH_LOCK := python3 -c 'import fcntl, subprocess, sys; lock = open(sys.argv[1], "a"); \
	fcntl.flock(lock, fcntl.LOCK_EX); sys.exit(subprocess.call(sys.argv[2:]))'

.PHONY: run test lint bench

# Safe to race: `make run` and `make test` started together on a fresh clone take turns (the
# second waits for the lock, then finds the work done), and a .venv that an interrupted build
# left without pip is built again from scratch.
$(INSTALLED): pyproject.toml
	@$(WITH_LOCK) $(VENV).lock sh -c "\
	    [ $@ -nt pyproject.toml ] && exit 0; \
	    $(PY) -m pip --version >/dev/null 2>&1 || python3 -m venv --clear $(VENV) || exit 1; \
	    $(PY) -m pip $(PIP_INSTALL) && touch $@"

## run: migrate, then API server + Celery worker + beat in the foreground (Ctrl-C stops all)
run: $(INSTALLED)
	$(PY) deploy/runall.py

## test: the whole suite (pass options with PYTEST_ARGS="-k health -x")
test: $(INSTALLED)
	$(PY) -m pytest $(PYTEST_ARGS)

## lint: ruff (lint + format), import contracts, mypy --strict on the engine (no type: ignore)
lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --strict games/engine

## bench: benchmarks (never part of the tests)
bench: $(INSTALLED)
	$(PY) -m bench $(BENCH_ARGS)
