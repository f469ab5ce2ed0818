"""The import graph, read from the syntax tree: no cycle between modules, counting the
imports inside functions, and every import inside a function says what start-up cost it
defers (docs/architecture.md, "Imports inside functions").

``lint-imports`` checks the layers between packages; a cycle inside one package, or one
hidden by an import moved into a function, is found here. Imports under
``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "docbatch_gui"
#: the comment an import inside a function carries, on its line or the line above
DEFERRED = "# deferred:"


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool


@functools.cache
def _source(path: Path) -> tuple[list[str], ast.Module]:
    """A module's lines and syntax tree, read once for every test here."""
    text = path.read_text(encoding="utf-8")
    return text.splitlines(), ast.parse(text, str(path))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for other in child.orelse:
                yield from _walk(other, in_function)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function
        scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
        yield from _walk(child, in_function or isinstance(child, scope))


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> Iterator[Import]:
    """Each import of a ``docbatch_gui`` module, by the module it names: ``from a import b``
    is an import of ``a.b`` when that is a module, else of ``a``."""
    for node, in_function in _walk(_source(path)[1], False):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = _resolve(module, path, node)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            while target and target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != module:
                yield Import(module, target, node.lineno, in_function)


def graph() -> dict[str, list[Import]]:
    modules = all_modules()
    known = set(modules)
    return {name: list(imports_of(name, path, known)) for name, path in modules.items()}


def cycles(edges: dict[str, list[Import]]) -> list[list[Import]]:
    """One cycle for each strongly connected group of modules (Tarjan), as its imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for edge in edges.get(v, []):
            w = edge.imported
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_one_cycle(edges, group) for group in groups]


def _one_cycle(edges: dict[str, list[Import]], group: set[str]) -> list[Import]:
    """The shortest cycle through the group's first module (breadth first)."""
    start = min(group)
    previous: dict[str, Import] = {}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for edge in edges[v]:
            if edge.imported not in group:
                continue
            if edge.imported == start:
                path = [edge]
                while path[0].importer != start:
                    path.insert(0, previous[path[0].importer])
                return path
            if edge.imported not in previous:
                previous[edge.imported] = edge
                queue.append(edge.imported)
    raise AssertionError(f"no cycle through {start}")


def shown(cycle: list[Import]) -> str:
    steps = [cycle[0].importer]
    for edge in cycle:
        arrow = "⇢" if edge.in_function else "→"
        steps.append(f"{arrow} {edge.imported} (l.{edge.line})")
    return " ".join(steps)


def test_no_import_cycle_between_modules() -> None:
    """``→`` is an import at module level, ``⇢`` one inside a function."""
    found = [shown(cycle) for cycle in cycles(graph())]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_scan_finds_a_cycle_hidden_in_a_function() -> None:
    edges = {
        "a": [Import("a", "b", 1, False)],
        "b": [Import("b", "c", 3, True)],
        "c": [Import("c", "a", 2, False)],
        "d": [Import("d", "a", 1, False)],
    }
    assert [shown(c) for c in cycles(edges)] == ["a → b (l.1) ⇢ c (l.3) → a (l.2)"]


def _import_groups(node: ast.AST, in_function: bool) -> Iterator[ast.stmt]:
    """The first statement of each run of consecutive imports inside a function."""
    for name in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(node, name, None)
        if not isinstance(block, list):
            continue
        previous_was_import = False
        for statement in block:
            is_import = isinstance(statement, ast.Import | ast.ImportFrom)
            if is_import and in_function and not previous_was_import:
                yield statement
            previous_was_import = is_import
            if isinstance(statement, ast.If) and _is_type_checking(statement):
                for other in statement.orelse:
                    yield from _import_groups(other, in_function)
                continue
            scope = ast.FunctionDef | ast.AsyncFunctionDef
            yield from _import_groups(statement, in_function or isinstance(statement, scope))


def _comment_above(lines: list[str], line_no: int) -> str:
    """The statement's own line and the comment lines right above it."""
    found = [lines[line_no - 1]]
    index = line_no - 2
    while index >= 0 and lines[index].strip().startswith("#"):
        found.append(lines[index])
        index -= 1
    return "\n".join(reversed(found))


def function_level_imports() -> Iterator[tuple[Path, int, str]]:
    """Each run of imports inside a function: its first line and the comment there
    (on that line or the comment lines above it), which speaks for the whole run."""
    for path in sorted(PACKAGE.rglob("*.py")):
        lines, tree = _source(path)
        for statement in _import_groups(tree, False):
            note = _comment_above(lines, statement.lineno)
            yield path, statement.lineno, note[note.find(DEFERRED) :] if DEFERRED in note else ""


def test_every_import_inside_a_function_says_what_it_defers() -> None:
    bare = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, line, note in function_level_imports()
        if not note.removeprefix(DEFERRED).strip()
    ]
    assert not bare, (
        f"an import inside a function without '{DEFERRED} <why>' above it (move it to the "
        "top, or say which measured start-up cost it defers):\n" + "\n".join(bare)
    )


def test_the_comment_check_reads_runs_of_imports() -> None:
    source = (
        "def f():\n"
        "    # deferred: a heavy library\n"
        "    import json\n"
        "    import csv\n"
        "    x = 1\n"
        "    import re\n"
    )
    tree = ast.parse(source)
    lines = source.splitlines()
    found = [
        (s.lineno, DEFERRED in _comment_above(lines, s.lineno)) for s in _import_groups(tree, False)
    ]
    assert found == [(3, True), (6, False)]
