"""The architecture, checked: the import contracts in pyproject.toml (docs/architecture.md
explains them), and a whole core that imports without loading Qt."""

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


def test_import_contracts_hold() -> None:
    """The contracts in pyproject.toml: layers, Qt only in ``_qt``, a domain without
    I/O, a registry independent of the engine."""
    from importlinter.cli import lint_imports

    config = str(PACKAGE.parent / "pyproject.toml")
    assert lint_imports(config_filename=config, no_cache=True, no_logo=True) == 0, (
        "broken import contracts: run lint-imports"
    )


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
