# Stichbuch: two commands.
#   make run   — set up, migrate, seed the demo club, serve on http://127.0.0.1:8000
#   make test  — set up, then lint, format check, type check, migration check, pytest
#
# Needs only Python 3.11 and make: the virtualenv is created in .venv and filled
# from the hashed lock file. It is reinstalled only when the lock changes.

PYTHON_BOOTSTRAP := $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev.lock
LOCK := requirements/dev.lock

.PHONY: run test venv lint typecheck migrations-check pytest messages reference clean

venv: $(STAMP)

$(PY):
	@test -n "$(PYTHON_BOOTSTRAP)" || { echo "Python 3.11 is needed (python3.11 or python3 on PATH)."; exit 1; }
	$(PYTHON_BOOTSTRAP) -m venv $(VENV)

# The stamp is a copy of the lock that was installed: a changed lock reinstalls.
$(STAMP): $(LOCK) | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)
	cp $(LOCK) $(STAMP)

# The port of `make run`: `PORT=8001 make run`.
PORT ?= 8000

run: venv
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py seed_demo
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:$(PORT)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: venv
	$(VENV)/bin/mypy .

migrations-check: venv
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run

# PYTEST_STATUS_FILE (optional): where to write pytest's own exit code, since make
# reports every failure as 2 and CI must tell "no tests collected" (5) apart.
pytest: venv
	@status=0; $(VENV)/bin/pytest $(PYTEST_ARGS) || status=$$?; \
	if [ -n "$(PYTEST_STATUS_FILE)" ]; then echo $$status > "$(PYTEST_STATUS_FILE)"; fi; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests: the test setup is broken."; fi; \
	exit $$status

# Every check runs even when an earlier one fails, so one run shows all problems.
test: venv
	@failed=""; \
	$(MAKE) --no-print-directory lint || failed="$$failed lint"; \
	$(MAKE) --no-print-directory typecheck || failed="$$failed typecheck"; \
	$(MAKE) --no-print-directory migrations-check || failed="$$failed migrations-check"; \
	$(MAKE) --no-print-directory pytest || failed="$$failed pytest"; \
	if [ -n "$$failed" ]; then echo "make test failed:$$failed"; exit 1; fi; \
	echo "make test: all checks passed"

# Refresh the German/English catalogues after changing texts (needs gettext).
messages: venv
	DEBUG=1 $(PY) manage.py makemessages --locale de --locale en --ignore '.venv/*'
	# The scripts' sentences (gettext in static/js): German only, English is the msgid.
	DEBUG=1 $(PY) manage.py makemessages -d djangojs --locale de --ignore '.venv/*' \
		--ignore 'tests/*' --ignore 'staticfiles/*' --ignore 'static/js/htmx.min.js'
	DEBUG=1 $(PY) manage.py compilemessages --ignore '.venv/*'

# Copy the reference records again from ../shared (tests/reference/README.md).
reference: venv
	$(PY) -m tests.reference.refresh

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
