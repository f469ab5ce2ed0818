"""A page's skip reason and orientation note keep their message in every store.

The English text stays what ``pages --json`` and older versions read; the code and
parameters beside it (``<note>_code``, ``<note>_params``) let the window word the note
in its language. A plain text (an old row, a note that was never a message) reads back
as a message without a code.
"""

from __future__ import annotations

from typing import Any

import pytest

from docbatch_gui.domain.messages import Message, coded
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
    def test_coded_page_notes_come_back_coded_and_plain_ones_plain(self, store: Store) -> None:
        job = store.create_job(new_job())
        skipped = coded("page_render_timeout", seconds=60.0)
        weak = from_osd(180, 1.2, 300).note
        vote = from_vote([(0.0, -1.0, 90.0)], coded("orient_source_layer")).note
        joined = coded("orient_layer_ocr_not_used", layer=vote, ocr=weak)
        store.put_pages(
            [
                Page(job.id, 1, 10, 20, render_error=skipped, orientation_note=weak),
                Page(job.id, 2, 10, 20, orientation_note=joined, orientation_uncertain=True),
                Page(
                    job.id,
                    3,
                    10,
                    20,
                    render_error=Message.plain("an old reason"),
                    orientation_note=Message.plain("old"),
                ),
                Page(job.id, 4, 10, 20),
            ]
        )
        first, second, third, fourth = store.list_pages(job.id)
        assert (first.render_error, first.orientation_note) == (skipped, weak)
        assert first.render_error is not None
        assert first.render_error.english == "rendering took longer than 60 s (PAGE_TIMEOUT)"
        assert second.orientation_note == joined
        assert "повёрнута на 90°" in joined.words("ru")
        assert third.render_error == Message.plain("an old reason")
        assert third.orientation_note == Message.plain("old")
        assert (fourth.render_error, fourth.orientation_note) == (None, None)
        rows = {row["page_no"]: row for row in _raw(store, "pages")}
        # the English text for scripts and older versions, the code and params beside it
        assert rows[1]["render_error"] == skipped.english
        assert rows[1]["render_error_code"] == "page_render_timeout"
        assert rows[3]["render_error"] == "an old reason" and rows[3]["render_error_code"] is None
        assert rows[4]["orientation_note"] == "" and rows[4]["orientation_note_code"] is None
        assert all("said" not in row for row in rows.values())

    def test_a_page_stored_again_without_a_code_loses_it(self, store: Store) -> None:
        job = store.create_job(new_job())
        store.put_pages([Page(job.id, 1, 10, 20, orientation_note=from_osd(0, 9.0, 300).note)])
        store.put_pages([Page(job.id, 1, 10, 20, orientation_note=Message.plain("typed by hand"))])
        (page,) = store.list_pages(job.id)
        assert page.orientation_note == Message.plain("typed by hand")

    def test_the_ocr_cache_keeps_its_note_coded(self, store: Store) -> None:
        note = coded("orient_small_image")
        store.put_ocr(OcrRecord(SHA_A, 1, "tesseract", "x", orientation_note=note))
        store.put_ocr(
            OcrRecord(SHA_A, 2, "tesseract", "y", orientation_note=Message.plain("plain"))
        )
        store.put_ocr(OcrRecord(SHA_A, 3, "tesseract", "z"))
        cached = store.get_ocr(SHA_A, "tesseract")
        assert cached[1].orientation_note == note
        assert cached[2].orientation_note == Message.plain("plain")
        assert cached[3].orientation_note is None
        rows = {row["page_no"]: row for row in _raw(store, "ocr_cache")}
        assert rows[1]["orientation_note"] == "a small image: read enlarged, without OSD"
        assert rows[1]["orientation_note_code"] == "orient_small_image"
        assert rows[2]["orientation_note_code"] is None
        assert all("said" not in row for row in rows.values())

    def test_a_document_store_reads_the_said_codes_an_older_version_wrote(
        self, store: Store
    ) -> None:
        """MongoDB has no migrations: a page or OCR record an older version wrote keeps
        its codes in ``said`` and reads back with them (SQLite: migration 22)."""
        db = getattr(store, "db", None)
        if db is None:
            pytest.skip("SQLite moves said in migration 22 (test_sqlite_store)")
        job = store.create_job(new_job())
        small = coded("orient_small_image")
        said = {"orientation_note": small.as_dict()}
        base = {"job_id": job.id, "width": 10, "height": 20, "render_error": ""}
        db.pages.insert_many(
            [
                {**base, "page_no": 1, "orientation_note": small.english, "said": said},
                {**base, "page_no": 2, "orientation_note": "old text", "said": {}},
            ]
        )
        first, second = store.list_pages(job.id)
        assert first.orientation_note == small and first.render_error is None
        assert second.orientation_note == Message.plain("old text")
        db.ocr_cache.insert_one(
            {
                "sha256": SHA_A,
                "page_no": 1,
                "engine": "tesseract",
                "text": "x",
                "orientation_note": small.english,
                "said": said,
            }
        )
        assert store.get_ocr(SHA_A, "tesseract")[1].orientation_note == small
