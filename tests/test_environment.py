"""environment.yml (conda, Binder, JupyterHub images) must install what pyproject.toml's learner
extras install: the same packages with the same version bounds, and tensorlab itself with them."""
import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")

ROOT = Path(__file__).resolve().parents[1]
LEARNER_EXTRAS = ("widgets", "vision", "lab")


def _requirement(text):
    """('name', 'bounds') of 'name>=1,<2' -- names compared the way pip does (case, - and _)."""
    name, bounds = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*(.*)", text).groups()
    return re.sub(r"[-_.]+", "-", name).lower(), bounds.replace(" ", "")


def _environment():
    conda, pip, section = {}, [], None
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            section = "conda"
        elif section and re.match(r"\s+- pip:\s*$", line):
            section = "pip"
        elif section == "conda" and re.match(r"\s+- ", line):
            entry = line.split("- ", 1)[1].strip()
            if not entry.startswith(("python", "pip")):
                name, bounds = _requirement(entry)
                conda[name] = bounds
        elif section == "pip" and re.match(r"\s+- ", line):
            pip.append(line.split("- ", 1)[1].strip())
    return conda, pip


def test_environment_yml_matches_the_learner_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(_requirement(r) for r in project["dependencies"])
    for extra in LEARNER_EXTRAS:
        wanted.update(_requirement(r) for r in project["optional-dependencies"][extra])
    conda, pip = _environment()
    assert conda == wanted, "environment.yml and pyproject.toml disagree: keep them in step"
    assert pip == [f"-e .[{','.join(LEARNER_EXTRAS)}]"]
