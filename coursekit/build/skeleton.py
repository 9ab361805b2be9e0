"""One source: the learner's starting code is cut out of tensorlab's own files.

A piece of tensorlab that a learner rebuilds is marked in the library with two comment lines::

    # build: stage 1
    def contiguous_strides(shape):
        \"\"\"Row-major strides: ...\"\"\"
        ...
    # build: end

Between the markers stand one or more functions (or methods of one class). :func:`regions` finds
them; :func:`stage_source` writes the learner's file for a stage -- each function becomes a stub
that keeps tensorlab's signature and docstring and raises ``NotImplementedError`` (or, for the
reference solution, keeps tensorlab's body). The imports the functions need are copied from the
library module, and the module-level helpers they call are imported from it, so the learner's file
runs exactly where tensorlab's code runs. There is no second copy of the library to keep in step.

    >>> [r.qualname for r in regions(1)][:2]
    ['contiguous_strides', 'is_contiguous']
    >>> print(stub(regions(1)[0]).splitlines()[-1])
        raise NotImplementedError("stage 1: write contiguous_strides")
"""
from __future__ import annotations

import ast
import builtins
import importlib.util
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r"^\s*# build: stage (\d+)\b")
END = re.compile(r"^\s*# build: end\b")


@dataclass(frozen=True)
class Region:
    """One marked function: where it lives in tensorlab and its source text."""
    stage: int
    module: str          # "tensorlab._layout"
    path: Path           # the file in tensorlab/
    qualname: str        # "contiguous_strides" or "Mul.backward"
    source: str          # the function, dedented, without decorators, with its name in the learner's file
    docstring_end: int   # the line (1-based, in ``source``) where its docstring ends

    @property
    def attr(self):
        """The function's name in tensorlab: ``backward`` for ``Mul.backward``."""
        return self.qualname.split(".")[-1]

    @property
    def name(self):
        """The function's name in the learner's file: a method is a plain function named after its
        class, ``Mul.backward`` -> ``mul_backward`` (several classes have a ``backward``)."""
        return learner_name(self.qualname)

    @property
    def owner(self):
        """The class the function is a method of, or None."""
        return self.qualname.split(".")[0] if "." in self.qualname else None


def learner_name(qualname):
    """``contiguous_strides`` -> itself; ``Mul.backward`` -> ``mul_backward``; ``AccumulateGrad.apply``
    -> ``accumulate_grad_apply``; ``Module.__setattr__`` -> ``module_setattr``; ``SGD._update`` ->
    ``sgd_update``."""
    if "." not in qualname:
        return qualname
    owner, attr = qualname.split(".")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", owner).lower().lstrip("_") + "_" + attr.strip("_")


def _module_path(module):
    return Path(importlib.util.find_spec(module).origin)


def _classes_by_line(tree):
    """{line of a def: the class whose body holds it}, for methods."""
    owners = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    owners[item.lineno] = node.name
    return owners


def regions_in(module):
    """Every marked function of one tensorlab module, in file order."""
    path = _module_path(module)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    owners = _classes_by_line(tree)
    found, stage, start = [], None, None
    for number, line in enumerate(lines, 1):
        if MARK.match(line):
            stage, start = int(MARK.match(line).group(1)), number
        elif END.match(line) and stage is not None:
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and start < node.lineno < number:
                    if node.col_offset > 0 and node.lineno not in owners:
                        continue   # a function nested inside a marked one travels with it
                    first = min([d.lineno for d in node.decorator_list] + [node.lineno])
                    begin = node.lineno  # decorators are dropped: grading re-applies them
                    body = "\n".join(lines[begin - 1:node.end_lineno])
                    doc = node.body[0]
                    if not (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                            and isinstance(doc.value.value, str)):
                        raise ValueError(f"{path}:{first}: a marked function needs a docstring")
                    qualname = f"{owners[node.lineno]}.{node.name}" if node.lineno in owners else node.name
                    source = textwrap.dedent(body)
                    if "." in qualname:   # the learner's file names a method after its class
                        source = source.replace(f"def {node.name}(", f"def {learner_name(qualname)}(", 1)
                    found.append(Region(stage, module, path, qualname, source, doc.end_lineno - begin + 1))
            stage = None
    return found


def regions(stage):
    """The marked functions of one stage, in the order of the stage's source modules."""
    from .stages import STAGES
    out = []
    for module in STAGES[stage].sources:
        out += [r for r in regions_in(module) if r.stage == stage]
    return out


def stub(region):
    """The function with tensorlab's signature and docstring and no body."""
    head = region.source.splitlines()[:region.docstring_end]
    indent = " " * (len(head[0]) - len(head[0].lstrip()) + 4)
    return "\n".join(head + [f'{indent}raise NotImplementedError("stage {region.stage}: write {region.name}")'])


def _absolute(node, module):
    """An ``import`` statement of ``module`` rewritten with absolute names."""
    if isinstance(node, ast.ImportFrom) and node.level:
        package = module.split(".")[:-node.level]
        node = ast.ImportFrom(".".join(package + ([node.module] if node.module else [])), node.names, 0)
    return ast.unparse(node)


def _header(stage, found):
    """The imports the stage's functions need: the library module's own imports that they use, and
    the library's module-level names that they call without defining them."""
    used = set()
    for region in found:
        for node in ast.walk(ast.parse(region.source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                used.add(node.id)
    defined = {r.name for r in found if r.owner is None}
    taken = set(defined) | set(dir(builtins))
    plain, names_from = [], {}      # "import numpy as np" lines; {module: [names imported from it]}
    for module in dict.fromkeys(r.module for r in found):
        tree = ast.parse(_module_path(module).read_text(encoding="utf-8"))
        for node in tree.body:       # the module's own imports, of the names the functions use
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                source = _absolute(ast.ImportFrom(node.module, [], node.level), module).split()[1]
                for alias in node.names:
                    bound = alias.asname or alias.name
                    if bound in used and bound not in taken:
                        if _is_submodule(f"{source}.{alias.name}"):   # ``from .. import tensor as _t``
                            plain += ["import importlib", f'{bound} = importlib.import_module("{source}.{alias.name}")']
                        else:
                            names_from.setdefault(source, []).append(
                                alias.name if not alias.asname else f"{alias.name} as {alias.asname}")
                        taken.add(bound)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    bound = (alias.asname or alias.name).split(".")[0]
                    if bound in used and bound not in taken:
                        plain.append(ast.unparse(ast.Import([alias])))
                        taken.add(bound)
        for node in tree.body:       # and its module-level helpers that they call
            name = getattr(node, "name", None)
            targets = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            for n in ([name] if name else []) + targets:
                if n in used and n not in taken:
                    names_from.setdefault(module, []).append(n)
                    taken.add(n)
    plain = list(dict.fromkeys(plain))
    imports = [line for line in plain if line.startswith("import ")]
    return imports + [_import_line(m, names) for m, names in names_from.items()] + \
        [line for line in plain if not line.startswith("import ")]


def _is_submodule(name):
    """True for a module (``tensorlab.tensor``): the package's attribute of that name may be something
    else (tensorlab.tensor is also the function ``tensor``), so the learner's file imports it by path."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _import_line(module, names):
    """``from module import a, b``, wrapped in parentheses when it is long."""
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= 100:
        return line
    body = textwrap.fill(", ".join(names), 96, initial_indent="    ", subsequent_indent="    ")
    return f"from {module} import (\n{body},\n)"


def stage_source(stage, solution=False):
    """The text of the learner's file for ``stage``: stubs, or with ``solution`` tensorlab's bodies."""
    from .stages import STAGES
    info = STAGES[stage]
    found = regions(stage)
    files = sorted({str(r.path.relative_to(ROOT)) for r in found})
    intro = textwrap.fill(info.task, 96)
    about = (f"Every function below is tensorlab's own ({', '.join(files)}): its signature and "
             "docstring are the library's, its body is yours to write.")
    if any(r.owner for r in found):
        about += (" A method is written as a plain function named after its class (Mul.backward is "
                  "mul_backward); grading puts it back into the class.")
    doc = (f'"""Stage {stage} of the build track: {info.title}.\n\n{intro}\n\n'
           f"{textwrap.fill(about, 96)} Grade with\n\n"
           f"    python -m coursekit.build grade {stage}\n\n"
           f"or ``%grade {stage}`` in course/build/{info.notebook}.\n\"\"\"\n")
    header = _header(stage, found)
    parts = [doc] + (["\n".join(header)] if header else [])
    for region in found:
        where = f"# {region.qualname} -- tensorlab: {region.module}"
        parts.append(f"\n\n{where}\n" + (region.source if solution else stub(region)))
    return "\n".join(parts).rstrip() + "\n"


def write_stage(directory, stage, solution=False):
    """Write ``directory/<stage file>``; returns its path."""
    from .stages import STAGES
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / STAGES[stage].filename
    path.write_text(stage_source(stage, solution), encoding="utf-8")
    return path
