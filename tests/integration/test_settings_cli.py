"""The command line over sectioned settings: its variables and an old settings file
work as before, the start writes the file back in sections, and a folder setting
that names a file stops it (the start's check) with exit 5."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docbatch_gui.domain.errors import ExitCode
from docbatch_gui.settings.migrations import SCHEMA_VERSION
from tests.helpers import cli

pytestmark = pytest.mark.slow


def test_the_command_line_reads_an_old_file_and_writes_it_back_in_sections(
    tmp_path: Path,
) -> None:
    old = tmp_path / "settings.json"
    old.write_text(json.dumps({"BATCH_SIZE": 50, "OCR_ENGINE": "none"}, indent=2) + "\n")
    env = {"DOCBATCH_SETTINGS_FILE": str(old), "EXECUTION": "inprocess", "JOB_TIMEOUT": "60"}
    result = cli(tmp_path / "data", "jobs", "--json", env=env)
    assert result.returncode == ExitCode.OK, result.stderr
    assert json.loads(result.stdout) == []
    assert json.loads(old.read_text(encoding="utf-8")) == {
        "schema_version": SCHEMA_VERSION,
        "batch": {"BATCH_SIZE": 50},
        "ocr": {"OCR_ENGINE": "none"},
    }


def test_a_data_folder_that_is_a_file_stops_the_start_with_exit_5(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    env = {"DOCBATCH_SETTINGS_FILE": str(tmp_path / "none.json")}
    result = cli(a_file, "jobs", env=env)
    assert result.returncode == ExitCode.CONFIG, result.stderr
    assert "is a file, not a folder" in result.stderr
    assert "DOCBATCH_DATA_DIR" in result.stderr
    assert "Traceback" not in result.stderr
