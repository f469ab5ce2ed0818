"""An import's rows encoded where they are parsed (``RowFilter.encoded``) are the text
the store writes from the records, cleaned as the store keeps them."""

from __future__ import annotations

import json

from docbatch_gui.registry.config import load_config
from docbatch_gui.registry.rows import RowFilter, as_stored
from docbatch_gui.storage.row_json import dumps, dumps_row, encode_record

CONFIG = {"mapping": {"number": "A", "amount": "C"}, "skip_rows_containing": ["итого по"]}
HEADERS = ["Номер", "Примечание", "Сумма"]
ROWS = [
    ("СФ-1", "обычная строка", "1 234,56"),
    ("СФ-2", 'кавычки " и \\ обратная черта', 12.5),
    ("СФ-3", "управляющий\x07символ и \u200fзнак направления", 10),
    ("СФ-4", "перевод\nстроки", 2**70),
    ("СФ-5", None, "\ud800"),
]


def test_an_encoded_row_is_its_stored_record_as_the_store_writes_it() -> None:
    rows = RowFilter(load_config(CONFIG), HEADERS)
    for number, raw in enumerate(ROWS, start=2):
        views = rows.views(number, raw)
        assert not hasattr(views, "reason")
        expected = encode_record(rows.record(as_stored(views)))  # type: ignore[arg-type]
        assert rows.encoded(number, raw) == expected


def test_the_stored_text_is_cleaned_of_control_and_direction_characters() -> None:
    rows = RowFilter(load_config(CONFIG), HEADERS)
    _row, raw, _mapped, _normalized = rows.encoded(4, ROWS[2])  # type: ignore[misc]
    assert json.loads(raw)["Примечание"] == "управляющийсимвол и знак направления"


def test_a_skip_word_matches_within_a_cell_never_across_two() -> None:
    rows = RowFilter(load_config(CONFIG), HEADERS)
    kept = rows.encoded(2, ("ИТОГО", "ПО группе", 5))
    assert not hasattr(kept, "reason")
    skipped = rows.encoded(3, ("x", "Итого по группе", 5))
    assert getattr(skipped, "reason", None) == "skip_word"


def test_what_orjson_refuses_is_encoded_by_json() -> None:
    for view in ({"a": 2**70}, {"a": "\ud800"}, {"ё": 'x"\n\\', "b": 1e16, "c": None}):
        assert json.loads(dumps_row(view)) == json.loads(dumps(view))
