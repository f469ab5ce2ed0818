"""``docbatch export``: documents out to xlsx, csv and json, in layouts."""

from __future__ import annotations

import csv
import json
from datetime import date, datetime
from pathlib import Path

import openpyxl
import pytest

from docbatch_gui.app.exports import DocumentExports
from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.outbound.documents import ExportOptions
from docbatch_gui.outbound.layouts import Column, Layout
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.sqlite import SQLiteStore
from tests.helpers import cli

FIELDS = {"number": "УПД-789", "date": "2024-05-20", "amount": "118000.00",
          "currency": "RUB", "vat_amount": "19666.67", "seller": "ООО «Ромашка»",
          "buyer": "АО Лютик", "seller_tax_id": "7707083893", "buyer_tax_id": None}  # fmt: skip


@pytest.fixture
def exports(tmp_path: Path) -> DocumentExports:
    store = SQLiteStore(tmp_path / "db.sqlite3")
    first = store.create_job(NewJob("УПД_789_от_20.05.2024.pdf", "/in/УПД_789.pdf", "a" * 64, 9))
    second = store.create_job(NewJob("scan_001.pdf", "/in/scan_001.pdf", "b" * 64, 9))
    store.replace_documents(first.id, [
        Document(first.id, 0, "invoice", 1, 2, fields=dict(FIELDS),
                 confidence=dict.fromkeys(FIELDS, 0.9) | {"vat_amount": 0.8},
                 confirmed_by="anna", confirmed_at="2024-05-21T09:30:00+00:00",
                 review_codes=[ReviewCode("field_missing", "buyer_tax_id")]),
    ])  # fmt: skip
    store.replace_documents(second.id, [
        Document(second.id, 0, "act", 1, 1, fields={"number": "=HYPERLINK(1)", "amount": "5"},
                 confidence={"number": 0.4, "amount": 0.9}, needs_review=True,
                 review_codes=[ReviewCode("field_missing", "date")]),
    ])  # fmt: skip
    settings = Settings(DOCBATCH_DATA_DIR=tmp_path / "data")
    return DocumentExports(store, settings, load_profile())


def test_xlsx_has_real_dates_and_numbers_a_frozen_filterable_header_in_the_language(
    exports: DocumentExports, tmp_path: Path
) -> None:
    out = tmp_path / "docs.xlsx"
    assert exports.export(out, exports.layout("all"), ExportOptions(language="ru")) == 2
    sheet = openpyxl.load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[0]
    assert header[:4] == ("Задание", "Файл", "Страницы", "Тип")
    assert "Сумма" in header and "Дата" in header and "Кто подтвердил" in header
    first = dict(zip(header, rows[1], strict=True))
    assert first["Дата"] == datetime(2024, 5, 20)  # a date cell, not text
    assert first["Сумма"] == 118000 and isinstance(first["Сумма"], int | float)
    assert first["Страницы"] == "1-2" and first["Тип"] == "Счёт"
    assert first["Проверка"] == "подтверждено" and first["Кто подтвердил"] == "anna"
    assert first["Причины проверки"] is None  # confirmed: its old reasons are settled
    assert isinstance(first["Когда подтверждено"], datetime)
    second = dict(zip(header, rows[2], strict=True))
    assert second["Номер"] == "'=HYPERLINK(1)"  # never a formula
    assert second["Проверка"] == "на проверке"
    assert second["Причины проверки"] == "Дата: не найдено"
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref.startswith("A1:")
    assert not (tmp_path / "docs.xlsx.part").exists()


def test_csv_is_utf8_with_bom_and_semicolons_with_decimal_commas_for_russian_excel(
    exports: DocumentExports, tmp_path: Path
) -> None:
    out = tmp_path / "docs.csv"
    exports.export(out, exports.layout("all"), ExportOptions(language="ru"))
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines(), delimiter=";"))
    assert rows[0]["Сумма"] == "118000,00" and rows[0]["Дата"] == "20.05.2024"
    assert rows[0]["Причины проверки"] == ""  # a confirmed document has none open
    assert rows[1]["Причины проверки"] == "Дата: не найдено"
    seller = next(f.labels["ru"] for f in load_profile().fields if f.key == "seller")
    assert rows[0][seller] == "ООО «Ромашка»" and rows[1]["Номер"] == "'=HYPERLINK(1)"
    english = tmp_path / "en.csv"
    exports.export(english, exports.layout("all"), ExportOptions(language="en", delimiter="\t"))
    rows = list(csv.DictReader(english.read_text("utf-8-sig").splitlines(), delimiter="\t"))
    assert rows[0]["Amount"] == "118000.00" and rows[0]["Date"] == "2024-05-20"


def test_json_is_documents_json_and_the_filters_choose(
    exports: DocumentExports, tmp_path: Path
) -> None:
    out = tmp_path / "docs.json"
    exports.export(out, exports.layout("all"), ExportOptions(state="needs_review"))
    (only,) = json.loads(out.read_text("utf-8"))
    assert only["file"] == "scan_001.pdf" and only["review_codes"][0]["code"] == "field_missing"
    assert set(only) >= {"id", "job_id", "fields", "confidence", "review_reasons", "locations"}
    exports.export(out, exports.layout("all"), ExportOptions(state="done", job_ids=(1,)))
    assert [d["job_id"] for d in json.loads(out.read_text("utf-8"))] == [1]
    future = ExportOptions(since=datetime(2999, 1, 1).astimezone())
    exports.export(out, exports.layout("all"), future)
    assert json.loads(out.read_text("utf-8")) == []


def test_the_1c_layout_has_1c_columns_in_order(exports: DocumentExports, tmp_path: Path) -> None:
    out = tmp_path / "1c.xlsx"
    exports.export(out, exports.layout("1c"), ExportOptions(language="ru", state="done"))
    rows = list(openpyxl.load_workbook(out).active.iter_rows(values_only=True))
    assert rows[0] == ("Дата входящего документа", "Номер входящего документа",
                       "Вид документа", "Контрагент", "ИНН контрагента", "Организация",
                       "ИНН организации", "Сумма документа", "Сумма НДС",
                       "Валюта документа", "Комментарий")  # fmt: skip
    assert rows[1][:5] == (datetime(2024, 5, 20), "УПД-789", "Счёт", "ООО «Ромашка»",
                           "7707083893")  # fmt: skip
    assert rows[1][7] == 118000.0 and rows[1][8] == 19666.67
    assert len(rows) == 2


def test_a_saved_layout_is_reused_and_a_wrong_one_is_refused(
    exports: DocumentExports, tmp_path: Path
) -> None:
    layout = Layout("mine", (Column("field:number", "№"), Column("file")))
    exports.save_layout(layout)
    assert exports.layout("mine") == layout
    with pytest.raises(ConfigError, match="unknown column"):
        exports.save_layout(Layout("bad", (Column("field:colour"),)))
    with pytest.raises(ConfigError, match="layout name"):
        exports.save_layout(Layout("../evil", (Column("file"),)))


# -- exports never write through links, and a CSV always reads back (issue 27) --------


@pytest.mark.parametrize("suffix", [".csv", ".xlsx", ".json"])
def test_a_link_planted_beside_the_target_is_never_written_through(
    exports: DocumentExports, tmp_path: Path, suffix: str
) -> None:
    victim = tmp_path / "payroll.txt"
    victim.write_text("precious", encoding="utf-8")
    out = tmp_path / f"report{suffix}"
    (tmp_path / f"report{suffix}.part").symlink_to(victim)  # the old temporary name
    exports.export(out, exports.layout("all"), ExportOptions())
    assert victim.read_text(encoding="utf-8") == "precious"
    assert out.is_file() and not out.is_symlink() and out.stat().st_size > 100
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".report")) == []


def test_a_link_at_the_target_name_is_replaced_not_followed(
    exports: DocumentExports, tmp_path: Path
) -> None:
    victim = tmp_path / "payroll.txt"
    victim.write_text("precious", encoding="utf-8")
    out = tmp_path / "report.csv"
    out.symlink_to(victim)
    exports.export(out, exports.layout("all"), ExportOptions())
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not out.is_symlink() and "Job" in out.read_text(encoding="utf-8-sig")


def test_the_registry_export_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    from docbatch_gui.registry.exporter import write_export

    victim = tmp_path / "payroll.txt"
    victim.write_text("precious", encoding="utf-8")
    out = tmp_path / "matched.xlsx"
    (tmp_path / "matched.xlsx.part").symlink_to(victim)
    write_export(out, ["Номер"], [], {}, {}, {}, [])
    assert victim.read_text(encoding="utf-8") == "precious"
    assert openpyxl.load_workbook(out).sheetnames


@pytest.mark.parametrize("delimiter", ['"', "\n", "\r", "ab", ""])
def test_a_delimiter_that_would_not_read_back_is_refused(
    exports: DocumentExports, tmp_path: Path, delimiter: str
) -> None:
    with pytest.raises(ConfigError, match="delimiter"):
        exports.export(
            tmp_path / "o.csv", exports.layout("all"), ExportOptions(delimiter=delimiter)
        )
    assert not list(tmp_path.glob("*o.csv*"))


def test_csv_headers_are_escaped_like_cells(exports: DocumentExports, tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    layout = Layout("columns", (Column("field:number", "=HYPERLINK(\"http://x\")"),
                                Column("file", "@SUM(1)")))  # fmt: skip
    exports.export(out, layout, ExportOptions(delimiter="|"))
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines(), delimiter="|"))
    assert rows[0] == ['\'=HYPERLINK("http://x")', "'@SUM(1)"]
    assert rows[2][0] == "'=HYPERLINK(1)"


@pytest.mark.slow  # seven CLI processes; the exports above run in-process
def test_the_export_command(tmp_path: Path) -> None:
    data = tmp_path / "data"
    usage = cli(data, "export")
    assert usage.returncode == 2 and "OUT" in usage.stderr
    saved = cli(data, "export", "--columns", "file,number=№,amount", "--save-layout", "short")
    assert saved.returncode == 0, saved.stderr
    listed = cli(data, "export", "--list-layouts")
    assert "short: file, number, amount" in listed.stdout and "1c:" in listed.stdout
    out = tmp_path / "x.csv"
    done = cli(data, "export", str(out), "--layout", "short", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["documents"] == 0
    assert out.read_text("utf-8-sig").splitlines() == ["File,№,Amount"]
    assert cli(data, "export", str(out), "--layout", "nope").returncode == 3
    assert cli(data, "export", str(tmp_path / "x.pdf")).returncode == 5
    assert date.today()  # the CLI wrote nothing else
