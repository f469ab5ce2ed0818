"""Clean text out: control and direction characters never act in a terminal or a
log, never reach a stored value, and never make an export fail."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.text import clean_value, printable
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.engine.documents import checked_documents, kept_documents
from docbatch_gui.registry.service import RegistryService
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.blobs import LocalBlobStore
from docbatch_gui.storage.sqlite import SQLiteStore
from tests import builders
from tests.helpers import cli

NASTY = "ООО\x07 «Ромашка»\x1b[2J\u202e"
WIDE = {"COLUMNS": "300"}  # the table does not fold a long name


def test_values_lose_control_and_direction_characters_names_show_them_escaped() -> None:
    assert clean_value(NASTY) == "ООО «Ромашка»[2J"
    assert clean_value("line one\nline two\tend") == "line one\nline two\tend"
    assert printable("счёт\u202efdp.exe\x1b[2J\n") == "счёт\\u202efdp.exe\\x1b[2J\\x0a"
    assert printable("plain name.pdf") == "plain name.pdf"


def test_stored_values_are_clean_and_an_export_never_fails_on_a_character(
    tmp_path: Path,
) -> None:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    job = store.create_job(NewJob("a.pdf", "/a.pdf", "a" * 64, 1))
    store.update_job(job.id, pages=2)
    ctx = EngineContext(store, LocalBlobStore(tmp_path / "blobs"), Settings(), load_profile())
    read = [Document(job.id, 0, "invoice", 1, 1, fields={"counterparty": NASTY})]
    (saved,) = kept_documents(store, job.id, checked_documents(ctx, job.id, read))
    assert saved.fields["counterparty"] == "ООО «Ромашка»[2J"
    # a record written before values were cleaned still exports
    store.replace_documents(
        job.id,
        [Document(job.id, 0, NASTY, 1, 1, fields={"number": "7", "amount": "1.00"})],
    )
    book = openpyxl.Workbook()
    book.active.append(["Number"])
    book.active.append(["7"])
    book.save(tmp_path / "r.xlsx")
    registry = RegistryService(store)
    reg = registry.import_registry(tmp_path / "r.xlsx", {"mapping": {"number": "A"}}).registry_id
    registry.search(reg)
    out = tmp_path / "export.xlsx"
    assert registry.export(reg, out) == 1
    cells = [c for row in openpyxl.load_workbook(out).worksheets[0].iter_rows(values_only=True)
             for c in row if isinstance(c, str)]  # fmt: skip
    assert "ООО «Ромашка»[2J" in cells
    store.close()


@pytest.mark.slow
def test_a_file_name_with_escape_sequences_is_shown_escaped(tmp_path: Path) -> None:
    data = tmp_path / "data"
    bad = builders.corrupt_pdf(tmp_path / "inv\x1b[31mRED\u202efdp.pdf")
    result = cli(data, "process", str(bad), "--mode", "offline", "--wait", env=WIDE)
    assert result.returncode == 1
    log = (data / "logs" / "docbatch.log").read_text(encoding="utf-8")
    for text in (result.stdout, result.stderr, log):
        assert "\x1b" not in text and "\u202e" not in text
    assert "inv\\x1b[31mRED\\u202efdp.pdf" in log
    assert "inv\\x1b[31mRED\\u202efdp.pdf" in result.stdout
    jobs = json.loads(cli(data, "jobs", "--json").stdout)
    assert jobs[0]["file"] == "inv\x1b[31mRED\u202efdp.pdf"  # the data itself is kept


@pytest.mark.slow
def test_markup_in_a_file_name_is_text(tmp_path: Path) -> None:
    data = tmp_path / "data"
    odd = builders.corrupt_pdf(tmp_path / "[bold]not bold [red]x[on blue].pdf")
    result = cli(data, "process", str(odd), "--mode", "offline", "--wait", env=WIDE)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "[bold]not bold [red]x[on blue].pdf" in result.stdout
