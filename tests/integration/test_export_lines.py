"""A document's lines leave DocBatch: the xlsx sheet "Lines"/"Строки", CSV
``--lines``, JSON and ``documents --json``, the 1C layout's goods table and the
webhook payload; every file is opened and read back."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest

from docbatch_gui.app.exports import DocumentExports
from docbatch_gui.cli import main
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.lines import Line
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.outbound.documents import ExportOptions
from docbatch_gui.outbound.webhook import Outbox
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.sqlite import SQLiteStore

FIELDS = {"number": "УПД-789", "date": "2024-05-20", "amount": "30.00", "currency": "RUB",
          "vat_amount": "5.00", "seller": "ООО «Ромашка»", "buyer": "АО Лютик",
          "seller_tax_id": "7707083893", "buyer_tax_id": None}  # fmt: skip
LINES = [
    Line("1", "Бумага А4", "А-1", "шт", "2", "10.50", "21.00", "20", "4.20", "25.20", 1,
         [0.05, 0.3, 0.95, 0.32]),
    Line("2", "=cmd|' /C calc'!A0", None, "кг", "1.5", "2.00", "3.00", "20", "0.60", "3.60", 2),
    Line("3", "Доставка", None, None, "1", "1.00", "1.00", "без НДС", None, "1.00", 2),
]  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "data" / "docbatch.sqlite3")
    job = store.create_job(NewJob("УПД_789.pdf", "/in/УПД_789.pdf", "a" * 64, 9))
    store.replace_documents(
        job.id, [Document(job.id, 0, "waybill", 1, 2, fields=dict(FIELDS), lines=LINES)]
    )
    return store


@pytest.fixture
def exports(store: SQLiteStore, tmp_path: Path) -> DocumentExports:
    return DocumentExports(store, Settings(DOCBATCH_DATA_DIR=tmp_path / "data"), load_profile())


@pytest.mark.parametrize(("language", "name", "qty"), [("en", "Lines", "Quantity"),
                                                       ("ru", "Строки", "Количество")])  # fmt: skip
def test_the_xlsx_has_a_sheet_of_lines_in_the_export_language(
    exports: DocumentExports, tmp_path: Path, language: str, name: str, qty: str
) -> None:
    out = tmp_path / "docs.xlsx"
    exports.export(out, exports.layout("all"), ExportOptions(language=language))
    workbook = openpyxl.load_workbook(out)
    assert workbook.sheetnames[1] == name
    rows = list(workbook[name].iter_rows(values_only=True))
    header = rows[0]
    assert qty in header and len(rows) == 4
    first = dict(zip(header, rows[1], strict=True))
    assert first[header[0]] == 1 and first[header[1]] == "УПД_789.pdf"  # job, file
    assert first[header[2]] == "УПД-789" and first[header[3]] == datetime(2024, 5, 20)
    assert first[header[4]] == "7707083893"  # the seller's INN on every line
    # named as the Documents sheet names it ("Seller INN" beside "Seller tax ID" before)
    documents_header = next(workbook.worksheets[0].iter_rows(max_row=1, values_only=True))
    assert header[4] == exports.profile.field_label("seller_tax_id", language)
    assert header[4] in documents_header
    assert first[qty] == 2 and isinstance(first[qty], int)
    second = dict(zip(header, rows[2], strict=True))
    assert second[qty] == 1.5
    assert second[exports.profile.line_label("name", language)].startswith("'=")  # escaped
    assert rows[3][header.index(exports.profile.line_label("vat_rate", language))] == "без НДС"


def test_the_1c_layout_writes_the_goods_table_under_1c_headers(
    exports: DocumentExports, tmp_path: Path
) -> None:
    out = tmp_path / "1c.xlsx"
    exports.export(out, exports.layout("1c"), ExportOptions(language="ru"))
    rows = list(openpyxl.load_workbook(out)["Строки"].iter_rows(values_only=True))
    assert rows[0][:6] == ("Номер входящего документа", "Дата входящего документа",
                           "ИНН контрагента", "Номенклатура", "Артикул", "Количество")  # fmt: skip
    goods = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert goods[0]["Номенклатура"] == "Бумага А4"
    assert [g["Сумма"] for g in goods] == [21, 3, 1]
    assert [g["НДС"] for g in goods] == [4.2, 0.6, None]
    assert all(g["Номер входящего документа"] == "УПД-789" for g in goods)


def run_cli(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> str:
    """The CLI's own entry, in this process: its options, its files and its JSON, the
    contract this module checks (three CLI processes took over 1 s of CPU each, over a
    minute and a half of wall time on a loaded machine, for nothing the process adds)."""
    code = main(["--data-dir", str(data), *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_cli_csv_lines_and_json_carry_the_lines(
    store: SQLiteStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    out = tmp_path / "lines.csv"
    run_cli(capsys, data, "export", str(out), "--lines", "--language", "ru")
    with out.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.reader(stream, delimiter=";"))
    assert len(rows) == 4 and "Количество" in rows[0]
    assert rows[2][rows[0].index("Количество")] == "1,5"  # a Russian decimal comma
    documents = json.loads(run_cli(capsys, data, "documents", "--json"))
    (lines,) = [d["lines"] for d in documents]
    assert [line["qty"] for line in lines] == ["2", "1.5", "1"]
    assert set(lines[0]) >= {"no", "name", "unit", "qty", "price", "net", "vat_rate", "vat",
                             "gross", "page"}  # fmt: skip
    assert lines[0]["box"] == [0.05, 0.3, 0.95, 0.32]
    exported = tmp_path / "docs.json"
    run_cli(capsys, data, "export", str(exported))
    assert json.loads(exported.read_text(encoding="utf-8"))[0]["lines"] == lines


def test_the_webhook_payload_carries_the_lines(store: SQLiteStore, tmp_path: Path) -> None:
    (job,) = store.list_jobs()
    outbox = Outbox(tmp_path / "outbox")
    outbox.add(job, store.list_documents(job.id))
    (message,) = outbox.pending()  # read back from the file it waits in
    (document,) = message.body["documents"]
    assert document["lines"][0]["name"] == "Бумага А4"
    assert document["lines"][2]["vat_rate"] == "без НДС"
