"""A page's request text, worked out by its render child or by the engine: the same
bytes either way; the child's answer is taken only for the line fields it judged by."""

from __future__ import annotations

import json
from pathlib import Path

from docbatch_gui.config.profile import default_profile_path, load_profile
from docbatch_gui.domain.models import Page
from docbatch_gui.engine import extraction
from docbatch_gui.engine.extraction import remember_layout, table_text
from docbatch_gui.pipeline.child import _table_text
from docbatch_gui.pipeline.render import PrepareTask
from docbatch_gui.pipeline.table_text import table_key
from docbatch_gui.pipeline.words import encode
from docbatch_gui.storage.blobs import LocalBlobStore

PROFILE = load_profile()
HEADER = [("№", 0.05), ("Наименование", 0.1), ("Кол-во", 0.5), ("Цена", 0.6), ("Сумма", 0.75)]
ROW = [("1", 0.05), ("Бумага", 0.1), ("2", 0.53), ("972,15", 0.6), ("1944,30", 0.75)]


def _words(rows: list[list[tuple[str, float]]]) -> list[tuple[str, float, float, float, float]]:
    return [
        (text, x, 0.1 + n * 0.02, x + 0.005 * len(text), 0.112 + n * 0.02)
        for n, row in enumerate(rows)
        for text, x in row
    ]


def _page(blobs: LocalBlobStore, blob: bytes, page_no: int) -> Page:
    return Page(1, page_no, 595, 842, text="as extracted", words_sha=blobs.put_bytes(blob))


def _engine_only(page: Page, blobs: LocalBlobStore) -> str:
    """What the engine works out alone (nothing remembered for the page's blob)."""
    kept = dict(extraction._LAYOUTS)
    extraction._LAYOUTS.clear()
    try:
        return table_text(page, blobs, PROFILE)
    finally:
        extraction._LAYOUTS.update(kept)


def test_the_child_and_the_engine_send_the_same_text(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    task = PrepareTask("x.pdf", "x.pdf", "pdf", profile_path=str(default_profile_path()))
    for page_no, rows in ((1, [HEADER, ROW]), (2, [[("Прочие", 0.1), ("условия", 0.3)]])):
        blob = encode(_words(rows))
        page = _page(blobs, blob, page_no)
        judged = _table_text(task, page_no, blob)
        assert judged["table_key"] == table_key(PROFILE)
        alone = _engine_only(page, blobs)
        remember_layout(page.words_sha or "", judged["table_key"], judged["table_layout"])
        assert table_text(page, blobs, PROFILE) == alone
        if page_no == 1:
            assert judged["table_layout"] == alone != page.text  # laid out as printed
        else:
            assert judged["table_layout"] is None and alone == page.text


def test_the_childs_answer_is_used_and_only_for_the_same_line_fields(tmp_path: Path) -> None:
    blobs = LocalBlobStore(tmp_path)
    page = _page(blobs, encode(_words([HEADER, ROW])), 3)
    remember_layout(page.words_sha or "", table_key(PROFILE), "the child's layout")
    assert table_text(page, blobs, PROFILE) == "the child's layout"  # not worked out again
    raw = json.loads(default_profile_path().read_text(encoding="utf-8"))
    raw["line_fields"] = raw["line_fields"][:-1]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    other = load_profile(edited)
    assert table_key(other) != table_key(PROFILE)
    assert table_text(page, blobs, other) != "the child's layout"  # judged by other fields


def test_an_offline_task_judges_no_table() -> None:
    task = PrepareTask("x.pdf", "x.pdf", "pdf")
    assert _table_text(task, 1, encode(_words([HEADER, ROW]))) == {}
