"""The import graph: no cycle between modules, counting the imports inside functions,
and every import inside a function says what start-up cost it defers
(docs/architecture.md, "Imports inside functions").

``lint-imports`` checks the layers between packages; a cycle inside one package, or one
hidden by an import moved into a function, is found here. The graph is grimp's (the
engine of import-linter, in Rust: a tenth of a second for the package), which reads
every import statement, those inside functions too, and leaves out those under
``if TYPE_CHECKING:``, which never run. Only the modules with an indented import are
parsed again here, to tell an import inside a function from one in a class or a
``try`` and to read its comment.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "docbatch_gui"
#: the comment an import inside a function carries, on its line or the lines above
DEFERRED = "# deferred:"


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int


@functools.cache
def _graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        "docbatch_gui",
        include_external_packages=True,
        exclude_type_checking_imports=True,
        cache_dir=None,
    )


def graph() -> dict[str, list[Import]]:
    """Every import between two modules of ``docbatch_gui``, by importer."""
    built = _graph()
    ours = {m for m in built.modules if m.split(".")[0] == "docbatch_gui"}
    edges: dict[str, list[Import]] = {m: [] for m in ours}
    for importer in sorted(ours):
        for imported in sorted(built.find_modules_directly_imported_by(importer) & ours):
            details = built.get_import_details(importer=importer, imported=imported)
            line = min(d["line_number"] for d in details) if details else 0
            edges[importer].append(Import(importer, imported, line))
    return edges


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
    steps += [f"→ {edge.imported} (l.{edge.line})" for edge in cycle]
    return " ".join(steps)


def test_no_import_cycle_between_modules() -> None:
    """Each cycle is named by its modules and the line of each import (inside a
    function or not)."""
    found = [shown(cycle) for cycle in cycles(graph())]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_scan_finds_a_cycle_hidden_in_a_function() -> None:
    edges = {
        "a": [Import("a", "b", 1)],
        "b": [Import("b", "c", 30)],  # inside a function: an edge like any other
        "c": [Import("c", "a", 2)],
        "d": [Import("d", "a", 1)],
    }
    assert [shown(c) for c in cycles(edges)] == ["a → b (l.1) → c (l.30) → a (l.2)"]


def test_grimp_counts_the_imports_inside_functions() -> None:
    """What the cycle test stands on: the ``# deferred:`` Anthropic SDK import in
    ``engine.context`` is an edge of the graph."""
    assert "docbatch_gui.llm.claude" in _graph().find_modules_directly_imported_by(
        "docbatch_gui.engine.context"
    )


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


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


def _files_with_indented_imports() -> list[Path]:
    """The modules where grimp saw an import on an indented line (a function, a class,
    a ``try``): the only ones that can hold an import inside a function."""
    built = _graph()
    files: set[Path] = set()
    for importer in built.modules:
        if importer.split(".")[0] != "docbatch_gui":
            continue
        for imported in built.find_modules_directly_imported_by(importer):
            for detail in built.get_import_details(importer=importer, imported=imported):
                if detail["line_contents"] and _indented(importer, detail["line_number"]):
                    files.add(_path_of(importer))
    return sorted(files)


def _path_of(module: str) -> Path:
    base = ROOT / module.replace(".", "/")
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


@functools.cache
def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _indented(module: str, line_no: int) -> bool:
    line = _lines(_path_of(module))[line_no - 1]
    return line[:1].isspace()


def function_level_imports() -> Iterator[tuple[Path, int, str]]:
    """Each run of imports inside a function: its first line and the comment there
    (on that line or the comment lines above it), which speaks for the whole run."""
    for path in _files_with_indented_imports():
        lines = _lines(path)
        for statement in _import_groups(ast.parse("\n".join(lines), str(path)), False):
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
