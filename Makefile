# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q

.PHONY: run test lint bench worker beat messages clean

$(VENV)/.runtime: pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -c constraints.txt -e .
	touch $@

$(VENV)/.test: $(VENV)/.runtime
	$(PIP) install -c constraints.txt -e '.[test]'
	touch $@

run: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py ensure_admin
	$(PY) manage.py load_demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Speed measurements (not tests); the pipeline one needs PostgreSQL and Redis on this machine.
bench: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.engines | tee benchmarks/results/engines.md
	$(PY) -m benchmarks.pipeline | tee benchmarks/results/pipeline.md
	$(PY) -m benchmarks.lists | tee benchmarks/results/lists.md

worker: $(VENV)/.runtime
	$(VENV)/bin/celery -A federation worker --loglevel=INFO --concurrency=1

beat: $(VENV)/.runtime
	$(VENV)/bin/celery -A federation beat --loglevel=INFO

messages: $(VENV)/.runtime
	$(PY) manage.py makemessages -l ru --ignore=.venv --ignore=tests
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
