"""mypy over the whole package, with the configuration in pyproject.toml: for this
platform, and for Windows (``--platform win32``), which type-checks the Windows side
of ``docbatch_gui/system/`` (``_windows.py``, against the ``types-pywin32`` stubs) and
every ``sys.platform`` branch as a Windows interpreter would take it.

The test suite is what CI runs, so this keeps the type checker clean in CI. A cold
run (a fresh cache in the test's tmp dir) takes one to two minutes of CPU; measured
4.5 minutes wall time on a loaded two-core machine, hence the longer timeout.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mypy import api

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("platform", [None, "win32"], ids=["this-platform", "win32"])
def test_mypy_is_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, platform: str | None
) -> None:
    monkeypatch.chdir(REPO)
    report, errors, status = api.run(
        [
            "--config-file",
            str(REPO / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "mypy_cache"),
            *(["--platform", platform] if platform else []),
            "docbatch_gui",
        ]
    )
    assert status == 0, f"mypy ({platform or sys.platform}) found problems:\n{report}{errors}"
