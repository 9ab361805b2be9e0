# Two commands do all set-up on a fresh clone:
#   make lab   -- create .venv, install tensorlab with its extras, open the course in JupyterLab
#                 (at the repository root, on course/00_welcome.ipynb; `make lab LANG=zh`: course/zh/)
#   make test  -- create .venv, install, run every test: unit/property/oracle tests (tests/),
#                 doctests (tensorlab/, widgets/, coursekit/), lesson notebooks and widget demos
#                 under nbval (course/, widgets/demos/), browser
# Other targets: make test-fast (skips slow and browser tests), make test-gpu (the device-independent
# tests on cuda; they skip, saying why, without CuPy and a GPU), make bench, make lessons, make clean.
#
# Variables: VENV=path (default .venv), PYTHON=interpreter that creates it, WORKERS=pytest-xdist
# processes (default 2), LESSON=course/NN_name.ipynb for `make lessons`, ARGS for `make bench`.
PYTHON  ?= python3
VENV    ?= .venv
WORKERS ?= 2
EXTRAS  ?= widgets,vision,lab,dev
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.tensorlab-installed
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings

# What pytest runs: tests, doctests of every package, and every lesson notebook.
TEST_PATHS := tests tensorlab $(wildcard widgets) coursekit course
NBVAL_OPTS := --nbval --nbval-current-env --nbval-sanitize-with tools/sanitize.cfg
PYTEST     := $(PY) -m pytest -n $(WORKERS) --dist loadfile $(NBVAL_OPTS)

.PHONY: install lab test test-fast test-gpu bench lessons clean

install: $(STAMP)

$(STAMP): pyproject.toml tools/lab-overrides.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -qq -e ".[$(EXTRAS)]"
	@# The kernel named python3 (the one lessons ask for) runs this environment's Python.
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	@# Lab settings: render every cell (so widgets off screen are live), no update/news checks.
	mkdir -p $(LAB_SETTINGS) && cp tools/lab-overrides.json $(LAB_SETTINGS)/overrides.json
	touch $@

# JupyterLab at the repository root, so a lesson's "read the source" links open tensorlab/'s files;
# it lands on the welcome lesson. (As root, e.g. in a container, Jupyter needs --allow-root.)
# `make lab LANG=zh` (or any zh* locale, e.g. LANG=zh_CN.UTF-8) opens the Chinese edition, course/zh/.
lab: install
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=. course/$(if $(filter zh%,$(LANG)),zh/)00_welcome.ipynb $(if $(filter 0,$(shell id -u)),--allow-root)

# pytest exits with 5 when it collected no tests; that is not a failure of the project.
test: install
	$(PYTEST) $(TEST_PATHS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; exit 0; fi; exit $$status

test-fast: install
	$(PYTEST) -m "not slow and not browser" $(TEST_PATHS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; exit 0; fi; exit $$status

# tests/test_device.py on cuda (tensor core, autograd, nn, optim, seeds), plus the files with
# cuda-specific checks; benchmarks/gpu_check.sh runs this and the GPU benchmarks in one go.
GPU_TESTS := tests/test_device.py tests/test_tensor_basics.py tests/test_seeds.py tests/test_serialization.py
test-gpu: install
	$(PY) -m pytest -n $(WORKERS) --device cuda $(GPU_TESTS)

bench: install
	$(PY) -m benchmarks $(ARGS)

lessons: install
	$(PY) tools/build_course.py $(LESSON)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
