"""The layering of DESIGN.md, checked: no Qt in the core, no I/O in the domain,
pipeline steps independent of storage."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "docbatch_gui"
QT_MODULES = ("PySide6", "PyQt5", "PyQt6", "qasync", "shiboken6", "pytestqt")


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def core_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "_qt" not in p.relative_to(PACKAGE).parts]


def test_core_source_imports_no_qt() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(
            n for n in imports_of(path) if n.startswith(QT_MODULES)
        )
        for path in core_files()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.slow
def test_importing_the_whole_core_loads_no_qt() -> None:
    modules = sorted(
        "docbatch_gui." + ".".join(p.relative_to(PACKAGE).with_suffix("").parts)
        for p in core_files()
        if p.name != "__main__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m.removesuffix('.__init__'))\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}]\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_domain_does_no_io_and_pipeline_does_not_touch_storage() -> None:
    for path in (PACKAGE / "domain").rglob("*.py"):
        bad = {
            n
            for n in imports_of(path)
            if n.split(".")[0] in {"sqlite3", "os", "shutil", "subprocess", "socket"}
        }
        bad |= {
            n
            for n in imports_of(path)
            if n.startswith("docbatch_gui.") and not n.startswith("docbatch_gui.domain")
        }
        assert not bad, (path.name, bad)
    for path in (PACKAGE / "pipeline").rglob("*.py"):
        assert not {
            n
            for n in imports_of(path)
            if n.startswith(("docbatch_gui.storage", "docbatch_gui.engine"))
        }, path.name
    for path in (PACKAGE / "storage").rglob("*.py"):
        assert not {
            n
            for n in imports_of(path)
            if n.startswith(("docbatch_gui.engine", "docbatch_gui.pipeline"))
        }, path.name
