# PyTorch Release Atlas. Every target sets up what it needs on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve site check lint test test-fast bench clean chromium

AXE := node_modules/axe-core/axe.min.js

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(AXE): package.json package-lock.json  ## axe-core, which the accessibility test injects (tests/test_a11y.py)
	npm ci --silent
	touch $(AXE)

serve: $(STAMP)  ## validate, generate and serve at http://127.0.0.1:8000, regenerating on save
	$(BIN)/python -m generator check
	$(BIN)/python -m generator serve

site: $(STAMP)  ## static build into site/ for publishing at $$SITE_URL (the API and feeds hold absolute URLs)
	@test -n "$$SITE_URL" || { echo "make site: set SITE_URL to the address the site will be published at (e.g. SITE_URL=https://example.org/atlas/ make site); the JSON API and Atom feeds carry absolute URLs, and make serve previews locally" >&2; exit 1; }
	$(BIN)/python -m generator build --site site

check: $(STAMP)
	$(BIN)/python -m generator check

lint: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator tests bench

# Browser tests never skip: install Debian's Chromium where we can, else stop with one line.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the browser tests" >&2; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "make test needs Chromium for its browser tests: run 'sudo apt-get install chromium', then make test" >&2; exit 1; \
	  fi; }

test: $(STAMP) $(AXE) lint chromium  ## lint, then the whole suite, browser tests included (installs Chromium if missing)
	$(BIN)/python -m pytest -q

test-fast: $(STAMP)  ## everything but the browser tests
	$(BIN)/python -m pytest -q -m "not browser"

bench: $(STAMP)  ## 1x/10x/50x benchmark; publishes its report as the site's "How fast is it" page
	$(BIN)/python -m bench
	$(BIN)/python -m bench.live --append bench-out/results.md
	$(BIN)/python -m bench.memos --append bench-out/results.md
	$(BIN)/python -m bench.scan --append bench-out/results.md
	$(BIN)/python -m bench.mechanisms --append bench-out/results.md
	cp bench-out/results.md generator/benchmark.md

clean:
	rm -rf site build bench-out .pytest_cache
