"""A sideways page whose text layer is short still has a vote: its own line
directions (PyMuPDF's ``dir``) are exact, so ten letters are enough to turn it, and a
page whose few lines point several ways is flagged, never left sideways silently."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pymupdf
import pytest

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.pipeline.render import PrepareTask, render_pages


def sideways_pdf(path: Path, pages: int = 5, *, mixed: bool = False) -> Path:
    """Portrait pages holding a landscape form set sideways: a frame and a ten-letter
    title ("INVOICE 318") that reads bottom to top."""
    document = pymupdf.open()
    for _ in range(pages):
        page = document.new_page(width=595, height=842)
        page.draw_rect(pymupdf.Rect(60, 60, 535, 782), width=2)
        page.insert_text((300, 700), "INVOICE 318", fontsize=24, rotate=90)
        if mixed:  # a second short line running the other way
            page.insert_text((400, 200), "PAID 2024", fontsize=24, rotate=270)
    document.save(path)
    return path


def _render(path: Path) -> list:
    return list(render_pages(PrepareTask(str(path), path.name, "pdf"), lambda _count: None))


def test_a_sideways_page_with_a_ten_letter_layer_is_turned(tmp_path: Path) -> None:
    pages = _render(sideways_pdf(tmp_path / "sideways.pdf"))
    assert len(pages) == 5
    for page in pages:
        assert (page.rotation, page.orientation_uncertain) == (90, False), page.orientation_note
        assert page.width > page.height  # the landscape form, upright
        assert page.orientation_note is not None
        assert "every line agreeing" in page.orientation_note.english


def test_a_short_layer_whose_lines_disagree_is_flagged(tmp_path: Path) -> None:
    pages = _render(sideways_pdf(tmp_path / "mixed.pdf", pages=1, mixed=True))
    (page,) = pages
    assert (page.rotation, page.orientation_uncertain) == (0, True), page.orientation_note


@pytest.mark.slow
def test_the_job_keeps_the_turn_and_pages_json_shows_it(app: DocBatchApp, tmp_path: Path) -> None:
    path = sideways_pdf(tmp_path / "sideways.pdf")
    (job,) = asyncio.run(app.run([j.id for j in app.add([path], mode="offline").jobs]))
    pages = app.store.list_pages(job.id)
    assert [(p.rotation, p.orientation_uncertain) for p in pages] == [(90, False)] * 5
