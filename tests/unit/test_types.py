"""The type checker, as CI runs it: mypy over the package with the settings in
pyproject.toml (``check_untyped_defs``, unused ignores reported)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_mypy_finds_no_error(tmp_path: Path) -> None:
    from mypy import api

    report, errors, status = api.run(
        [
            "--config-file",
            str(REPO / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "mypy-cache"),
            str(REPO / "docbatch_gui"),
        ]
    )
    assert status == 0, report + errors
