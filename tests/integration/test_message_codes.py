"""Messages from the core keep their code: a job's error and a registry's warnings
are stored with it, ``--json`` gives it, and the CLI words it in ``--lang``, the
``language`` setting or the system's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from docbatch_gui.cli import main
from docbatch_gui.cli.output import Language, system_language
from docbatch_gui.domain.messages import coded
from docbatch_gui.domain.models import NewJob
from docbatch_gui.domain.states import JobState
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.conftest import RESOURCES

REGISTRY_SAMPLE = RESOURCES / "registry_sample"


@pytest.fixture(autouse=True)
def english_system(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "DOCBATCH_LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _unwrapped(table: str) -> str:
    """The table's words in one line: a narrow console folds the note over lines."""
    return " ".join(re.sub(r"[│┃]", " ", table).split())


def test_a_job_error_keeps_its_code_and_the_cli_words_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = str(tmp_path / "data")
    missing = tmp_path / "nowhere.pdf"
    code, _, _ = run(capsys, "--data-dir", data, "process", str(missing))
    assert code == 0
    _, out, _ = run(capsys, "--data-dir", data, "jobs", "--json")
    [job] = json.loads(out)
    assert job["state"] == "failed"
    assert job["error_code"] == "intake_missing"
    assert job["error_params"] == {"file": "nowhere.pdf", "path": str(missing)}
    assert job["error"].startswith("nowhere.pdf: the path does not exist")  # English, as ever
    _, out, _ = run(capsys, "--data-dir", data, "--lang", "ru", "jobs")
    out = _unwrapped(out)
    assert "такого пути нет" in out and "файл не подходит" in out
    monkeypatch.setenv("DOCBATCH_LANGUAGE", "ru")  # the setting, without --lang
    _, out, _ = run(capsys, "--data-dir", data, "jobs")
    assert "такого пути нет" in _unwrapped(out)
    _, out, _ = run(capsys, "--data-dir", data, "--lang", "en", "jobs")
    assert "the path does not exist" in out


def test_the_system_language_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert system_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert system_language({"LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU.UTF-8"}) == "en"
    assert system_language({}) == "en"
    assert Language.choose(None, "", {"LC_MESSAGES": "ru_RU"}) == "ru"
    assert Language.chosen is None
    assert Language.choose("en", "ru", {"LANG": "ru_RU"}) == "en"


def test_an_error_sentence_follows_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.xlsx"
    old.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 600)
    args = ["--data-dir", str(tmp_path / "d"), "registry", "import", str(old), "--config",
            str(REGISTRY_SAMPLE / "config.json")]  # fmt: skip
    code, _, err = run(capsys, "--lang", "ru", *args)
    assert code == 7
    assert "старый файл Excel 97-2003" in " ".join(err.split())
    code, _, err = run(capsys, *args)
    assert code == 7 and "old Excel 97-2003" in " ".join(err.split())


def test_the_store_keeps_a_code_only_with_its_text(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/in/a.pdf", "a" * 64, 1))
    failed = store.transition(job.id, JobState.FAILED, error=coded("pdf_password", file="a.pdf"))
    assert failed.error_code == "pdf_password" and failed.error_params == {"file": "a.pdf"}
    assert failed.error_words("ru").startswith("a.pdf: PDF защищён паролем")
    queued = store.transition(job.id, JobState.QUEUED)
    assert queued.error is None and queued.error_code is None and queued.error_params == {}
    plain = store.transition(job.id, JobState.CANCELED, error="by hand, no code")
    assert plain.error_code is None and plain.error_words("ru") == "by hand, no code"


def test_registry_warnings_keep_their_codes_and_the_export_its_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    _, out, _ = run(capsys, "--data-dir", data, "registry", "import",
                    str(REGISTRY_SAMPLE / "registry.xlsx"), "--config",
                    str(REGISTRY_SAMPLE / "config.json"), "--json")  # fmt: skip
    registry = str(json.loads(out)["id"])
    assert run(capsys, "--data-dir", data, "registry", "search", registry)[0] == 0
    _, out, _ = run(capsys, "--data-dir", data, "registry", "results", registry, "--json")
    results = json.loads(out)
    assert results and all(r["warnings"] == ["no candidates"] for r in results)
    assert all(r["warning_codes"][0]["code"] == "match_no_candidates" for r in results)
    _, out, _ = run(capsys, "--data-dir", data, "--lang", "ru", "registry", "results", registry)
    assert "нет кандидатов" in out
    ru, en = tmp_path / "ru.xlsx", tmp_path / "en.xlsx"
    assert run(capsys, "--data-dir", data, "registry", "export", registry, str(ru))[0] == 0
    assert run(capsys, "--data-dir", data, "--lang", "en", "registry", "export", registry,
               str(en))[0] == 0  # fmt: skip
    russian, english_book = load_workbook(ru, read_only=True), load_workbook(en, read_only=True)
    assert russian.sheetnames == ["Реестр", "Документы без строки"]  # unchanged by default
    assert english_book.sheetnames == ["Registry", "Documents without a row"]
    header = next(english_book["Registry"].iter_rows(max_row=1, values_only=True))
    assert "Warnings" in header and "Предупреждения" not in header
    row = next(english_book["Registry"].iter_rows(min_row=2, max_row=2, values_only=True))
    assert "no candidates" in row
