# PyTorch Release Atlas. Every target sets up what it needs on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve site check lint test test-fast bench clean

$(STAMP): pyproject.toml package.json package-lock.json
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	npm ci --silent  # axe-core, for the accessibility test (tests/test_a11y.py)
	touch $(STAMP)

serve: $(STAMP)  ## validate, generate and serve at http://127.0.0.1:8000, regenerating on save
	$(BIN)/python -m generator check
	$(BIN)/python -m generator serve

site: $(STAMP)  ## static build into site/
	$(BIN)/python -m generator build --site site

check: $(STAMP)
	$(BIN)/python -m generator check

lint: $(STAMP)
	$(BIN)/ruff check generator tests

test: $(STAMP) lint  ## lint, then the whole suite, browser tests included
	$(BIN)/python -m pytest -q

test-fast: $(STAMP)  ## everything but the browser tests
	$(BIN)/python -m pytest -q -m "not browser"

bench: $(STAMP)  ## 1x/10x/50x benchmark; publishes its report as the site's "How fast is it" page
	$(BIN)/python -m tests.bench
	$(BIN)/python -m tests.bench_live --append bench-out/results.md
	cp bench-out/results.md generator/benchmark.md

clean:
	rm -rf site build bench-out .pytest_cache
