# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# --no-compile: the byte-code of the ~60 packages is written as each module is first imported (a
# fraction of them), not all at install: 16 s less of a fresh `make run` on this 2-core machine.
PIP_INSTALL := $(PY) -m pip --disable-pip-version-check -q install --no-compile

.PHONY: run serve test lint bench bench-fide bench-tiebreaks bench-load bench-whatif profile worker engine-worker beat messages clean bench-gcr bench-accuracy

$(VENV)/.runtime: pyproject.toml constraints.txt
	@echo "== $$(date "+%T %Z") Python packages: installing into .venv (a minute or two the first time)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PIP_INSTALL) -c constraints.txt -e .
	@touch $@

$(VENV)/.test: $(VENV)/.runtime
	$(PIP_INSTALL) -c constraints.txt -e '.[test]'
	touch $@

$(VENV)/.bench: $(VENV)/.runtime
	$(PIP_INSTALL) -c constraints.txt -e '.[bench]'
	touch $@

# `make run PORT=8731 HOST=0.0.0.0` serves there; the settings read both (ALLOWED_HOSTS and, in
# development, SITE_URL follow them). DEBUG stays off, as in production (the site's own error pages,
# static files by WhiteNoise), unless `make run DEBUG=1`. The demo's log goes to var/log/demo.log (the
# terminal keeps its warnings); the run ends with the address, the accounts and where to start.
HOST ?= 127.0.0.1
PORT ?= 8000
DEBUG ?= 0
RUN_ADDRESS = $(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)
RUN_ENV = HOST=$(HOST) PORT=$(PORT) DEBUG=$(DEBUG)
DEMO_LOG = var/log/demo.log
# The periodic jobs' and rating runs' lines; the terminal keeps the requests and what went wrong.
SERVER_LOG = var/log/server.log
run: $(VENV)/.runtime
	@echo "== $$(date "+%T %Z") Database: migrating db.sqlite3"
	@$(RUN_ENV) $(PY) manage.py migrate --noinput -v0
	@echo "== $$(date "+%T %Z") Admin account"
	@$(RUN_ENV) $(PY) manage.py ensure_admin
	@echo "== $$(date "+%T %Z") Demo federation: tournaments and mobile games through the real pipeline (log: $(DEMO_LOG))"
	@$(RUN_ENV) LOG_FILE=$(DEMO_LOG) $(PY) manage.py load_demo \
		|| { echo "The demo failed: its error is above, its full log in $(DEMO_LOG)" >&2; exit 1; }
	@echo "== $$(date "+%T %Z") Serving http://$(RUN_ADDRESS)/ (DEBUG=$(DEBUG))"
	@# Without a broker, runserver also runs the periodic jobs of federation/celery.py (DEV_SCHEDULER).
	@$(RUN_ENV) LOG_FILE=$(SERVER_LOG) $(PY) manage.py runserver $(RUN_ADDRESS) --welcome

# A newcomer's first minutes: `make run` on fresh clones (pip's cache warm) to the first page, and the
# demo alone on an empty SQLite database; best and worst of 3, with the load average. About 8 minutes.
.PHONY: bench-setup
bench-setup:
	mkdir -p benchmarks/results
	$(PYTHON) -m benchmarks.operations.setup | tee benchmarks/results/setup.md

# Production: the settings come from the environment (docs/operators/production.md); gunicorn's from
# federation/gunicorn.conf.py (WEB_CONCURRENCY, GUNICORN_THREADS, GUNICORN_BIND, ...).
serve: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	$(VENV)/bin/gunicorn -c federation/gunicorn.conf.py federation.wsgi

# The suite runs in TEST_WORKERS processes (pytest-xdist; 0 runs it in this one). Each worker has its
# own test database and, with Redis, the configured Redis databases shifted by 2 per worker
# (federation/settings_test.py): with CI's 4 and 5, workers 0 and 1 use 4-5 and 6-7.
TEST_WORKERS ?= 2
test: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Speed measurements (not tests). The scale benchmark needs PostgreSQL and Redis on this machine
# (BENCH_DATABASE_URL, BENCH_BROKER_URL to point elsewhere) and takes about five minutes.
bench: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.engines | tee benchmarks/results/engines.md
	$(PY) -m benchmarks.scale | tee benchmarks/results/scale.md

# GCR computed on request over 100,000 filtered games (the GCR filter page, /api/gcr/), on PostgreSQL
# (BENCH_DATABASE_URL; BENCH_CACHE_URL for the cache): first request, cached, and the engine alone as yardstick.
bench-gcr: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.gcr.filter | tee benchmarks/results/gcr-filter.md

# Importing a generated 1.1-million-player FIDE standard list, TXT and XML, on PostgreSQL
# (BENCH_DATABASE_URL): wall time and peak memory of the import command. About three minutes.
bench-fide: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.operations.fide_list | tee benchmarks/results/fide-list.md

# The what-if calculator's response time (target < 200 ms), as a ratio to a yardstick of the same run
# (BENCH_DATABASE_URL, default a temporary SQLite file). About a minute.
bench-whatif: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.whatif.calculator | tee benchmarks/results/whatif.md

# Every C.07 tie-break and the standings of a 500-player, 11-round Swiss, as a ratio to the crosstable.
bench-tiebreaks: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.tiebreaks.swiss | tee benchmarks/results/tiebreaks.md

# Which system predicts best (issue 27.2) over a generated, rated federation on PostgreSQL
# (BENCH_DATABASE_URL, BENCH_CACHE_URL): the figures computed cold, the page and the API cached.
bench-accuracy: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.accuracy | tee benchmarks/results/accuracy.md

# An arbiter's confirmation under `runserver` with nothing configured, the demo loaded: the POST's
# answer and the time until its progress page says published (issue 35, 3).
.PHONY: bench-confirm
bench-confirm: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.arbiters.confirm | tee benchmarks/results/confirm.md

# 50 concurrent clients against gunicorn on a generated federation, without and with the page cache.
bench-load: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.load | tee benchmarks/results/load.md

# Where the full re-rating of the scale federation spends its time (py-spy, every process).
profile: $(VENV)/.bench
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.profile | tee benchmarks/results/profile-rerate.md

worker: $(VENV)/.runtime
	$(VENV)/bin/celery -A federation worker --loglevel=INFO --concurrency=1

# The computer opponents' moves (play.tasks.engine_move) on their own queue, so a game never waits
# behind a rating run nor a rating run behind a game: one slot, one Stockfish process, reused.
engine-worker: $(VENV)/.runtime
	$(VENV)/bin/celery -A federation worker -Q engine -n engine@%h --loglevel=INFO --concurrency=1

# The one scheduler: start it on two hosts if you like; the one holding the Redis lock
# (CELERY_BEAT_SCHEDULER, BEAT_LOCK_SECONDS) fires the jobs, the other stands by (docs/operators/multi-host.md).
beat: $(VENV)/.runtime
	$(VENV)/bin/celery -A federation beat --loglevel=INFO

# The multi-host layout on this machine (loopback addresses 127.0.0.2-10, PostgreSQL and Redis as for
# `make bench`: BENCH_DATABASE_URL, BENCH_BROKER_URL, BENCH_CACHE_URL): a rating run, an SMS game and a
# worker host killed mid-run, timed. About two minutes.
.PHONY: multihost
multihost: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.multihost | tee benchmarks/results/multihost.md

# The catalogue without source locations (--no-location): an entry moves only when its text changes, so
# branches that add messages merge without conflicts over line numbers; no obsolete entries (#~) either.
# The scripts' domain (djangojs) has no catalogue while no script calls gettext.
messages: $(VENV)/.runtime
	$(PY) manage.py makemessages -l ru --ignore=.venv --ignore=tests --no-location --no-obsolete
	$(PY) manage.py makemessages -d djangojs -l ru --ignore=.venv --ignore=tests --no-location --no-obsolete
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

# Mobile chess on PostgreSQL + Redis (BENCH_DATABASE_URL, BENCH_BROKER_URL as for `make bench`; the
# database's mobile-chess tables are emptied): a move message's server time, 200 messages/s over
# 10,000 open games with a real worker delivering, the sweeper's pass over 100,000 open games, the
# computer levels' engine time per move.
.PHONY: bench-play
# The upload preview of large files in the formats arbiters export (SQLite; the files are
# generated by the benchmarks' own writers from a generated Swiss).
.PHONY: bench-import
bench-import: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.swissmanager_preview | tee benchmarks/results/swissmanager-preview.md
	$(PY) -m benchmarks.html_preview | tee benchmarks/results/html-preview.md

bench-play: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.play_replay | tee benchmarks/results/play-replay.md
	$(PY) -m benchmarks.play_move | tee benchmarks/results/play-move.md
	$(PY) -m benchmarks.play_throughput | tee benchmarks/results/play-throughput.md
	$(PY) -m benchmarks.play_sweep | tee benchmarks/results/play-sweep.md
	$(PY) -m benchmarks.play_engine | tee benchmarks/results/play-engine.md

# SMS through the real worker path (same databases; a fake gateway in the benchmark's process):
# an inbound webhook (gunicorn) to its reply reaching the gateway (a Celery worker), and the outbox
# draining 1,000 queued SMS.
.PHONY: bench-channels
bench-channels: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.channels | tee benchmarks/results/channels.md

# Backup and restore of a generated federation of a million rated games (PostgreSQL, BENCH_DATABASE_URL):
# the backup, the restore into a new database, its full re-rate, and the lists compared.
.PHONY: bench-backup
bench-backup: $(VENV)/.runtime
	mkdir -p benchmarks/results
	$(PY) -m benchmarks.operations.backup | tee benchmarks/results/backup.md
