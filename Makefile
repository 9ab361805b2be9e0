# Two commands do all set-up on a fresh machine:
#   make lab   -- create .venv, install tensorlab with its extras, open the course in JupyterLab
#   make test  -- create .venv, install, run every test (unit, property, PyTorch oracle, notebooks, browser)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: lab test install bench clean lessons

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e ".[widgets,vision,lab,dev]"
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

install: $(VENV)/.installed

lab: install
	$(VENV)/bin/jupyter lab course/

test: install
	$(PY) -m pytest -n 2 tests tensorlab; status=$$?; \
	if [ $$status -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$status

bench: install
	$(PY) -m benchmarks

lessons: install
	$(PY) course/build.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
