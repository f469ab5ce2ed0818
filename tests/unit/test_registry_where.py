"""The registry export carries where the matched values stand on their pages."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl

from docbatch_gui.config.profile import load_profile
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.registry import RegistryRowRecord, SearchResult
from docbatch_gui.registry.exporter import ExportLabels, export_words, write_export
from docbatch_gui.registry.where import (
    matched_locations,
    value_location,
    where_text,
    where_words,
)

LOCATIONS = {
    "number": {"page": 1, "box": [0.1661, 0.1695, 0.2743, 0.185]},
    "amount": {"page": 2, "box": [0.8517, 0.3654, 0.9227, 0.3809]},
}
DOCUMENT = Document(
    1,
    0,
    "invoice",
    1,
    2,
    fields={"number": "INV-1", "date": "2024-03-05", "amount": "1234.56"},
    locations=LOCATIONS,
    id=7,
)
EXPLANATION = [
    {"field": "number", "document_field": "from_content.number"},
    {"field": "date", "document_field": "from_content.date"},
    {"field": "amount", "document_field": "from_content.amount"},
    {"field": "number", "document_field": "from_filename.number"},
]


def test_the_spots_of_the_compared_content_values() -> None:
    assert value_location(DOCUMENT, "from_content.number") == LOCATIONS["number"]
    assert value_location(DOCUMENT, "from_filename.number") is None
    assert value_location(DOCUMENT, "handwritten_numbers") is None
    assert matched_locations(DOCUMENT, EXPLANATION) == [
        ("number", LOCATIONS["number"]),
        ("amount", LOCATIONS["amount"]),
    ]
    assert matched_locations(DOCUMENT, []) == matched_locations(DOCUMENT, EXPLANATION)
    assert where_text(LOCATIONS["number"]) == "p. 1 [0.166, 0.170, 0.274, 0.185]"
    assert where_text(LOCATIONS["number"], "ru") == "стр. 1 [0.166, 0.170, 0.274, 0.185]"


def test_the_export_has_a_column_of_where_the_values_stand(tmp_path: Path) -> None:
    rows = [
        RegistryRowRecord(4, {"Номер": "INV-1"}, {"number": "INV-1"}, {"number": "1"}),
        RegistryRowRecord(5, {"Номер": "X"}, {"number": "X"}, {"number": None}),
    ]
    results = {4: SearchResult(4, 7, 0.9, EXPLANATION), 5: SearchResult(5, None, 0.0)}
    out = tmp_path / "export.xlsx"
    write_export(out, ["Номер"], rows, results, {7: DOCUMENT}, {1: "inv.pdf"}, [])
    sheet = openpyxl.load_workbook(out)["Реестр"]
    header = [c.value for c in sheet[1]]
    column = header.index("Документ: где на странице")
    assert header[1:] == list(export_words("ru").match_columns)
    assert sheet[2][column].value == (
        "number: стр. 1, вверху слева; amount: стр. 2, посередине справа"
    )
    assert sheet[3][column].value is None


def test_a_russian_export_names_fields_and_types_in_russian(tmp_path: Path) -> None:
    """With the profile's labels (as the application exports), "Номер: стр. 1" and
    "Счёт", not the keys; English labels in an English export."""
    rows = [RegistryRowRecord(4, {"Номер": "INV-1"}, {"number": "INV-1"}, {"number": "1"})]
    results = {4: SearchResult(4, 7, 0.9, EXPLANATION)}
    profile = load_profile(None)
    for language, where, kind in (
        ("ru", "Номер: стр. 1, вверху слева; Сумма: стр. 2, посередине справа", "Счёт"),
        ("en", "Number: p. 1, top left; Amount: p. 2, middle right", "Invoice"),
    ):
        labels = ExportLabels.of(profile, language)
        out = tmp_path / f"export_{language}.xlsx"
        write_export(out, ["Номер"], rows, results, {7: DOCUMENT}, {1: "inv.pdf"}, [DOCUMENT],
                     language=language, labels=labels)  # fmt: skip
        book = openpyxl.load_workbook(out)
        sheet = book.worksheets[0]
        cells = [c.value for c in sheet[2]]
        assert str(cells[-1]).startswith(where)
        assert cells[5] == kind  # the document's type
        assert [c.value for c in book.worksheets[1][2]][3] == kind  # the unmatched sheet


def test_the_places_in_words() -> None:
    assert where_words(LOCATIONS["number"]) == "p. 1, top left"
    assert where_words({"page": 3, "box": [0.4, 0.9, 0.6, 0.95]}, "ru") == "стр. 3, внизу по центру"
    assert where_words({"page": 1, "box": [0.4, 0.4, 0.6, 0.6]}) == "p. 1, middle"


def test_every_export_header_is_in_the_exports_language(tmp_path: Path) -> None:
    """The registry's own columns aside, an English export has no Russian header and a
    Russian one no English word ("Row", "Document id" were left in before)."""
    rows = [RegistryRowRecord(4, {"Номер": "INV-1"}, {"number": "INV-1"}, {"number": "1"})]
    results = {4: SearchResult(4, 7, 0.9, EXPLANATION)}
    for language, alphabet in (("en", re.compile(r"[А-Яа-яЁё]")), ("ru", re.compile("[A-Za-z]"))):
        out = tmp_path / f"export_{language}.xlsx"
        write_export(out, ["Номер"], rows, results, {7: DOCUMENT}, {1: "inv.pdf"}, [DOCUMENT],
                     language=language)  # fmt: skip
        book = openpyxl.load_workbook(out)
        names = [c.value for c in book.worksheets[0][1]][1:]
        names += [c.value for c in book.worksheets[1][1]]
        names += [sheet.title for sheet in book.worksheets]
        assert len(names) == 13 + 7 + 2
        assert not [n for n in names if alphabet.search(str(n))], language


def test_the_rule_docbatch_made_is_named_in_the_exports_language(tmp_path: Path) -> None:
    """A Russian export's Rule column said «default», the name the configuration keeps;
    the window calls it «основное». A rule the operator named stays as they named it."""
    rows = [
        RegistryRowRecord(4, {"Номер": "INV-1"}, {"number": "INV-1"}, {"number": "1"}),
        RegistryRowRecord(5, {"Номер": "INV-2"}, {"number": "INV-2"}, {"number": "1"}),
    ]
    results = {
        4: SearchResult(4, 7, 0.9, EXPLANATION, rule="default"),
        5: SearchResult(5, None, 0.0, [], rule="акты"),
    }
    for language, named in (("ru", "основное"), ("en", "default")):
        out = tmp_path / f"export_{language}.xlsx"
        write_export(out, ["Номер"], rows, results, {7: DOCUMENT}, {1: "inv.pdf"}, [DOCUMENT],
                     language=language)  # fmt: skip
        sheet = openpyxl.load_workbook(out).worksheets[0]
        header = [c.value for c in sheet[1]]
        column = next(i for i, h in enumerate(header) if h in ("Правило", "Rule"))
        assert [sheet.cell(r, column + 1).value for r in (2, 3)] == [named, "акты"]
