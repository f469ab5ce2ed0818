"""A text bomb (a few KB of compressed text that holds millions of characters) is capped
at MAX_PAGE_TEXT_CHARS: the database stays small and the job still ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import text_bomb_pdf
from tests.helpers import cli, cli_json


@pytest.mark.slow  # three CLI processes and a whole job
def test_a_text_bomb_is_capped_and_the_job_ends(tmp_path: Path) -> None:
    bomb = text_bomb_pdf(tmp_path / "bomb.pdf", repeats=40_000)  # 1.3 million characters
    data = tmp_path / "data"
    env = {"PROCESSING_MODE": "offline", "OCR_ENGINE": "none", "MAX_PAGE_TEXT_CHARS": "20000",
           "JOB_TIMEOUT": "900", "PAGE_TIMEOUT": "600"}  # fmt: skip
    result = cli(data, "process", str(bomb), "--wait", env=env, timeout=300)
    (job,) = cli_json(data, "jobs", env=env)
    assert job["state"] in ("done", "needs_review"), (job, result.stderr)
    (page,) = cli_json(data, "pages", "--job", str(job["id"]), env=env)
    assert page["text_chars"] <= 20_000
    assert (data / "docbatch.sqlite3").stat().st_size < 5 * 2**20
    log = (data / "logs" / "docbatch.log").read_text(encoding="utf-8")
    assert "MAX_PAGE_TEXT_CHARS" in log
