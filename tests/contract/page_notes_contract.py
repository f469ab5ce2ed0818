"""A page's skip reason and orientation note keep their message in every store.

The English text stays what ``pages --json`` and older versions read; the code beside
it lets the window word the note in its language. A plain text (an old row, a note
that was never a message) reads back as plain text.
"""

from __future__ import annotations

from typing import Any

from docbatch_gui.domain.messages import Worded, coded
from docbatch_gui.domain.models import OcrRecord, Page
from docbatch_gui.pipeline.orientation import from_osd, from_vote
from docbatch_gui.storage.store import Store
from tests.contract.store_contract import SHA_A, new_job


def _raw(store: Store, table: str) -> list[dict[str, Any]]:
    """The rows as the backend holds them, to see what its driver was given."""
    db = getattr(store, "db", None)
    if db is not None:  # MongoDB
        return list(db[table].find({}, {"_id": 0}))
    rows = store._db.execute(f"SELECT * FROM {table}").fetchall()  # type: ignore[attr-defined]
    return [dict(r) for r in rows]


class PageNotesContract:
    def test_worded_page_notes_come_back_worded_and_plain_ones_plain(self, store: Store) -> None:
        job = store.create_job(new_job())
        skipped = coded("page_render_timeout", seconds=60.0)
        weak = from_osd(180, 1.2, 300).note
        vote = from_vote([(0.0, -1.0, 90.0)], coded("orient_source_layer")).note
        joined = coded("orient_layer_ocr_not_used", layer=vote, ocr=weak)
        store.put_pages(
            [
                Page(job.id, 1, 10, 20, render_error=skipped, orientation_note=weak),
                Page(job.id, 2, 10, 20, orientation_note=joined, orientation_uncertain=True),
                Page(job.id, 3, 10, 20, render_error="an old reason", orientation_note="old"),
                Page(job.id, 4, 10, 20),
            ]
        )
        first, second, third, fourth = store.list_pages(job.id)
        for back, sent in ((first.render_error, skipped), (first.orientation_note, weak)):
            assert isinstance(back, Worded) and isinstance(sent, Worded)
            assert back == sent and back.message == sent.message
        assert first.render_error == "rendering took longer than 60 s (PAGE_TIMEOUT)"
        assert isinstance(second.orientation_note, Worded)
        assert second.orientation_note.message == joined.message
        assert "повёрнута на 90°" in second.orientation_note.message.words("ru")
        assert (third.render_error, third.orientation_note) == ("an old reason", "old")
        assert not isinstance(third.render_error, Worded)
        assert not isinstance(third.orientation_note, Worded)
        assert (fourth.render_error, fourth.orientation_note) == ("", "")
        assert not isinstance(fourth.orientation_note, Worded)
        for row in _raw(store, "pages"):  # the driver is given plain text, never a Worded
            assert type(row["render_error"]) is str and type(row["orientation_note"]) is str

    def test_a_page_stored_again_without_a_code_loses_it(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages([Page(job.id, 1, 10, 20, orientation_note=from_osd(0, 9.0, 300).note)])
        store.put_pages([Page(job.id, 1, 10, 20, orientation_note="typed by hand")])
        (page,) = store.list_pages(job.id)
        assert page.orientation_note == "typed by hand"
        assert not isinstance(page.orientation_note, Worded)

    def test_the_ocr_cache_keeps_its_note_worded(self, store: Store) -> None:
        note = coded("orient_small_image")
        store.put_ocr(OcrRecord(SHA_A, 1, "tesseract", "x", orientation_note=note))
        store.put_ocr(OcrRecord(SHA_A, 2, "tesseract", "y", orientation_note="plain"))
        cached = store.get_ocr(SHA_A, "tesseract")
        assert isinstance(cached[1].orientation_note, Worded)
        assert cached[1].orientation_note.message == note.message
        assert cached[1].orientation_note == "a small image: read enlarged, without OSD"
        assert cached[2].orientation_note == "plain"
        assert not isinstance(cached[2].orientation_note, Worded)
        for row in _raw(store, "ocr_cache"):
            assert type(row["orientation_note"]) is str
