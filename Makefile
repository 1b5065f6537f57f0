# The two commands a newcomer needs: `make play` and `make test`. Both set everything up first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
# catanatron 3.3.0 (with its AlphaBeta and ValueFunction bots) is not on the package registry; a wheel of it
# beside the checkout is installed for the bridge tests, else the registry's 3.2.1 (those tests then skip)
WHEELS ?= ../shared/wheels
CATANATRON_WHEEL := $(wildcard $(WHEELS)/catanatron-3.3.0-py3-none-any.whl)
STAMP  := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)$(if $(CATANATRON_WHEEL),-catanatron-wheel)

.PHONY: install play play-terminal watch lint test test-all bench mutation clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[test,web]' $(CATANATRON_WHEEL)
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

## Serve the web page: play Catan, Connect 4 and more in a browser against any agent (prints the address to open).
play: install
	$(BIN)/boardzero serve --host 127.0.0.1 --port $(PORT)

## Play Connect 4 in the terminal against the bundled agent (watch it play itself when there is no terminal).
play-terminal: install
	@if [ -t 0 ]; then $(BIN)/boardzero play connect4; \
	else $(BIN)/boardzero play connect4 --watch; fi

## Watch the bundled agents play a game of Catan.
watch: install
	$(BIN)/boardzero play catan --watch

## Static checks: the layers (import-linter), lint and formatting (ruff), types (mypy). `make test` runs them first.
lint: install
	$(BIN)/lint-imports
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy

## The test suite (slow tests are skipped; `make test-all` runs them too), after the static checks.
test: lint
	$(BIN)/python -m pytest -m "not slow" -n 2 --dist loadfile

test-all: lint
	HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest -n 2 --dist loadfile

## Mutation score of the learning, fairness and storage modules (mutmut; long, not part of CI). MODULES=eval/paired.py
mutation: install
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[test,web,mutation]'
	nice -n 10 $(BIN)/python bench/mutation.py $(MODULES)

## Benchmarks, side by side with other engines (installs the comparison engines).
bench: install
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[test,web,bench]'
	$(BIN)/boardzero bench

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
