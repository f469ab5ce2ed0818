"""The typed job patch: its keys are the job's columns, and mypy refuses a misspelt
one at the call site (the stores refuse it at run time too: the contract suite)."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from docbatch_gui.domain.models import Job
from docbatch_gui.storage.job_patch import JOB_FIELDS, JobPatch

REPO = Path(__file__).resolve().parents[2]
#: columns set once, when the job is made, or by ``transition`` itself
NOT_PATCHED = {"id", "file_name", "source_path", "sha256", "size", "state", "created_at",
               "updated_at", "origin"}  # fmt: skip


def test_the_patch_holds_every_column_a_store_changes() -> None:
    columns = {f.name for f in dataclasses.fields(Job)}
    assert columns >= JOB_FIELDS
    assert columns - JOB_FIELDS == NOT_PATCHED
    assert JobPatch.__required_keys__ == frozenset()  # a patch names what it changes
    assert {"error_code", "error_params"} <= JOB_FIELDS


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_mypy_refuses_a_misspelt_or_mistyped_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mypy import api

    snippet = tmp_path / "patch_use.py"
    snippet.write_text(
        textwrap.dedent(
            """
            from docbatch_gui.storage.store import Store

            def use(store: Store) -> None:
                store.update_job(1, progress=0.5, error_code="x", error_params={})
                store.update_job(1, progres=0.5)
                store.update_job(1, documents="three")
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.chdir(REPO)
    report, errors, status = api.run(
        [
            "--config-file",
            str(REPO / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "mypy_cache"),
            "--follow-imports",
            "silent",
            str(snippet),
        ]
    )
    assert status == 1, report + errors
    problems = [line for line in report.splitlines() if ": error:" in line]
    assert len(problems) == 2, report
    assert 'Unexpected keyword argument "progres"' in problems[0]
    assert 'Argument "documents"' in problems[1]
