# The two commands of the README: `make run` and `make test`.
# Only Python 3.12+ is needed: uv is installed into .tools/ and installs the rest.

PYTHON ?= python3
UV := .tools/bin/uv
VENV := .venv/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test check test-tools lint messages

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check "uv==0.13.9"

# Bytecode compiled once here: with PYTHONDONTWRITEBYTECODE set (as on our machines and in the
# image) every process would otherwise compile each module it imports, ~3 s per server start.
PROJECT_SOURCES := accounts api benchmarks frontend games ops scripts tests yukon_site manage.py

# The engine's hot modules are compiled by mypyc where a C compiler exists (gcc on Debian), and
# rebuilt only when a source changed; YUKON_COMPILE=0 skips (and removes) the build. Without it
# the engine runs its sources, with identical results (docs/solver.md, "Compiled core").
install: $(UV)
	$(UV) sync --frozen --compile-bytecode --python $(PYTHON)
	$(VENV)/python -m compileall -q -j 0 $(PROJECT_SOURCES) >/dev/null
	$(VENV)/python -m games.engine.build

# The committed winnability sample (games/odds/dataset/) is loaded after the migrations (a
# second of work when it is already in). One task worker (analysis, queued hints) beside the
# web server; stopping make run (Ctrl-C or SIGTERM) stops both: the shell's trap ends the
# worker once the server has stopped.
run: install
	$(VENV)/python manage.py migrate --noinput
	$(VENV)/python manage.py winnability_data load
	$(VENV)/python manage.py stock_puzzles
	$(VENV)/python manage.py worker & worker=$$!; \
	trap 'kill -TERM $$worker 2>/dev/null; wait $$worker' EXIT; trap 'exit 130' INT TERM; \
	$(VENV)/uvicorn yukon_site.asgi:application --host $(HOST) --port $(PORT) --lifespan off --no-proxy-headers --ws-per-message-deflate false

# Translations: refresh the catalogues from the sources, then compile the committed .mo files.
# Needs GNU gettext (apt-get install -y gettext); `make run` does not: the .mo files are in git.
MESSAGE_SCAN := -i data -i test-artifacts -i tests -i benchmarks -i docs -i node_modules
messages: install
	$(VENV)/python manage.py makemessages -l hu -l pt -l de -d django --add-location=file $(MESSAGE_SCAN)
	$(VENV)/python manage.py makemessages -l hu -l pt -l de -d djangojs --add-location=file $(MESSAGE_SCAN)
	for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check -o "$${po%.po}.mo" "$$po"; done

lint: install
	$(VENV)/ruff check .
	$(VENV)/mypy

test-tools:
	bash scripts/install-test-tools.sh

# The fast part, for every change: lint, types, the Node unit tests and the tests that start no
# server process nor browser (tests marked `slow` by tests/conftest.py), one pytest-xdist
# process per core: under three minutes on two cores.
check: install lint
	node --test tests/js/
	$(VENV)/python -m pytest -m "not slow" -q -p no:cacheprovider -n auto

# Everything: lint, types, the Node unit tests and the whole pytest suite, one pytest-xdist
# process per core. `--dist loadgroup` keeps the tests that share a server, Chromium or a
# cluster on one worker, which starts it once (worker_group in tests/conftest.py: the slow
# packages, the browser one as two groups, a few modules), largest groups first; the other
# tests go one by one to whichever worker is free. Each worker has its own test database
# and its own slice of listen ports (scripts/processes.py); the error-code census merges
# what every worker saw (tests/conftest.py).
test: install test-tools lint
	@command -v node >/dev/null || { echo "make test needs Node.js 20+ for tests/js: apt-get install -y nodejs"; exit 1; }
	node --test tests/js/
	$(VENV)/python -m pytest --durations=25 -n auto --dist loadgroup
