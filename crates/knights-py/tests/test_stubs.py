"""The hand-kept stub ``_native.pyi`` says exactly what the compiled
module ``knights._native`` has: the same functions, classes, methods and
properties, each function and method with the same parameters (names, in
order, and which have defaults). mypy trusts the stub, so a stub that
drifted from the binding would type-check calls that fail at run time."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Dict, List, Tuple

import knights._native as native

STUB = Path(__file__).resolve().parents[1] / "python" / "knights" / "_native.pyi"

#: Members every compiled class has that a stub does not declare: besides
#: the usual ones, the other comparisons that PyO3 fills in beside ``__eq__``
#: (they answer ``NotImplemented``); the stub's ``__init__`` is ``__new__``.
_IMPLICIT = {"__doc__", "__module__", "__new__", "__dict__", "__weakref__"}
_IMPLICIT |= {"__ne__", "__lt__", "__le__", "__gt__", "__ge__"}
#: The notebook's pictures, which knights/__init__.py adds to both classes.
_IMPLICIT |= {"_repr_svg_", "_repr_png_"}

#: A parameter as compared: its name and whether it has a default.
Param = Tuple[str, bool]


def _stub_params(f: ast.FunctionDef) -> List[Param]:
    a = f.args
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    params = [(p.arg, i >= first_default) for i, p in enumerate(positional)]
    params += [(p.arg, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if params and params[0][0] == "self":
        params = params[1:]
    return params


def _native_params(f: object) -> List[Param]:
    sig = inspect.signature(f)  # type: ignore[arg-type]
    return [
        (p.name, p.default is not inspect.Parameter.empty)
        for p in sig.parameters.values()
        if p.name not in ("self", "$self")
    ]


def _is_property(f: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in f.decorator_list)


def _stub() -> Tuple[Dict[str, ast.FunctionDef], Dict[str, ast.ClassDef], List[str]]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    constants = [
        n.target.id
        for n in tree.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    ]
    return functions, classes, constants


def _public(module: object) -> List[str]:
    return sorted(k for k in vars(module) if not k.startswith("__"))


def test_the_stub_names_what_the_module_has():
    functions, classes, constants = _stub()
    assert sorted([*functions, *classes, *constants]) == _public(native)


def test_every_function_has_the_stubs_parameters():
    functions, _, _ = _stub()
    for name, f in functions.items():
        assert _native_params(getattr(native, name)) == _stub_params(f), name


def test_every_class_has_the_stubs_members():
    _, classes, _ = _stub()
    for name, c in classes.items():
        cls = getattr(native, name)
        members = {n.name: n for n in c.body if isinstance(n, ast.FunctionDef)}
        compiled = {k: v for k, v in vars(cls).items() if k not in _IMPLICIT}
        if "__init__" in members:
            compiled["__init__"] = cls
        assert sorted(members) == sorted(compiled), name
        for member, f in members.items():
            bound = compiled[member]
            if _is_property(f):
                assert inspect.isdatadescriptor(bound), f"{name}.{member} is not a property"
            else:
                assert not inspect.isdatadescriptor(bound), f"{name}.{member} is a property"
                assert _native_params(bound) == _stub_params(f), f"{name}.{member}"
