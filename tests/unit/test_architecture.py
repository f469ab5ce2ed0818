"""A whole core that imports without loading Qt, checked at run time.

The import contracts themselves (pyproject.toml, docs/architecture.md) are checked by
``lint-imports`` in the lint step of scripts/test.sh, before the tests, and the graph
between modules by tests/unit/test_import_graph.py; this test also catches Qt loaded
by a third-party library, which neither sees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "docbatch_gui"
QT_MODULES = ("PySide6", "PyQt5", "PyQt6", "qasync", "shiboken6", "pytestqt")


def core_files() -> list[Path]:
    """The core's modules that import on this platform: ``system`` has one module per
    platform family, and only this platform's (``system.implementation()``) imports."""
    from docbatch_gui.system import implementation

    other = {"docbatch_gui.system._posix", "docbatch_gui.system._windows"} - {implementation()}
    other_files = {PACKAGE.parent / (name.replace(".", "/") + ".py") for name in other}
    return [
        p
        for p in PACKAGE.rglob("*.py")
        if "_qt" not in p.relative_to(PACKAGE).parts and p not in other_files
    ]


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
