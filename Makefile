# The two commands a reader needs are `make book` and `make test`; both create the
# virtual environment .venv and install requirements.txt and svmlib (editable) on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

LAB_ARGS ?=
# JupyterLab refuses to run as root unless told to (containers and CI run as root).
LAB_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: help book instructors test export notebooks format lab browser clean

help:
	@echo "make book       build the book into _build/html (zero warnings allowed)"
	@echo "make instructors  the instructors' edition, every exercise and no solution, into"
	@echo "                _build/instructors/_build/html"
	@echo "make test       unit tests, export check, strict nbval on every notebook, book build, browser test"
	@echo "make export     write svmlib/ from the notebooks' exported cells"
	@echo "make notebooks  export, then re-execute every chapter top to bottom in a fresh kernel"
	@echo "make format     format the code with ruff (notebooks included) and apply its safe fixes"
	@echo "make lab        start JupyterLab in the project environment, svmlib importable"
	@echo "make clean      remove _build and the virtual environment"

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

book: $(STAMP)
	$(BIN)/jupyter-book build . --warningiserror --nitpick --keep-going

instructors: $(STAMP)
	$(BIN)/python tools/instructors.py

test: $(STAMP) browser
	$(BIN)/python -m pytest

# The browser test needs Chromium: installed here when missing and possible (Debian, root).
browser:
	-@tools/install_chromium.sh

lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_ROOT) $(LAB_ARGS)

export: $(STAMP)
	$(BIN)/python tools/export.py

notebooks: export
	$(BIN)/python tools/run_notebooks.py

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf _build $(VENV)
