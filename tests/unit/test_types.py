"""mypy over the whole package, with the configuration in pyproject.toml.

The test suite is what CI runs, so this keeps the type checker clean in CI. A cold
run (a fresh cache in the test's tmp dir) takes one to two minutes of CPU; measured
4.5 minutes wall time on a loaded two-core machine, hence the longer timeout.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_mypy_is_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    report, errors, status = api.run(
        [
            "--config-file",
            str(REPO / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "mypy_cache"),
            "docbatch_gui",
        ]
    )
    assert status == 0, f"mypy found problems:\n{report}{errors}"
