"""Review shows a likely duplicate with the document its mark names: the other's page
and its key fields next to this one's, under its page (a tab beside its lines), *Not a
duplicate* and *Open the other*."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from docbatch_gui.domain.reasons import ReviewCode
from tests.gui.conftest import interface_in, until
from tests.gui.review_helpers import boxed_job, open_review
from tests.gui.test_sizes import clipped_controls

QASYNC = pytest.mark.asyncio(loop_factories=["qasync"])


def _pair(app: Any) -> tuple[int, Any, int]:
    """An earlier job's document, and a later job's marked as its likely duplicate
    (its seller's INN unread, so number and amount decided)."""
    first_job = boxed_job(app, codes=[])
    (first,) = app.store.list_documents(first_job)
    first = app.store.update_document(
        replace(first, fields={**first.fields, "seller_tax_id": "7707083893"})
    )
    mark = ReviewCode(
        "likely_duplicate", params={"document": first.id, "job": first_job, "file": "boxed.pdf"}
    )
    second_job = boxed_job(app, codes=[mark])
    return first_job, first, second_job


async def _shown(window: Any, job_id: int) -> Any:
    tab = await open_review(window, job_id)
    pair = tab.duplicate_pair
    await until(lambda: pair.page.image is not None, 10, "the other document's page")
    return tab


@QASYNC
async def test_the_other_document_stands_beside_with_its_page_and_fields(window: Any) -> None:
    first_job, first, second_job = _pair(window.ctx.app)
    tab = await _shown(window, second_job)
    pair = tab.duplicate_pair
    assert pair.isVisible() and pair.other is not None and pair.other.id == first.id
    assert pair.page.isVisible() and not pair.page.image.isNull()
    # under this document's page, beside its lines, not instead of the page
    top = pair.mapTo(tab, QPoint(0, 0)).y()
    page_end = tab.page_view.mapTo(tab, QPoint(0, 0)).y() + tab.page_view.height()
    assert tab.page_view.isVisible() and top >= page_end
    assert tab.below_page.currentWidget() is pair
    assert [pair.labels[k].text() for k in ("number", "date", "seller_tax_id", "amount")] == [
        "Number", "Date", "Seller tax ID", "Amount",
    ]  # fmt: skip
    assert pair.mine["number"].text() == pair.theirs["number"].text() == "100"
    assert pair.theirs["seller_tax_id"].text() == "7707083893"
    assert pair.mine["seller_tax_id"].text() == "—"
    assert pair.theirs["seller_tax_id"].toolTip() == "Differs from this document"
    assert pair.theirs["number"].toolTip() == ""
    assert f"Job {first_job} · boxed.pdf · document 1, pages" in pair.where.text()
    # both answers are given where both are seen
    assert tab.not_duplicate_button.isVisible() and pair.isAncestorOf(tab.not_duplicate_button)
    assert pair.open_button.isVisible() and pair.open_button.isEnabled()

    pair.open_button.click()
    await until(
        lambda: tab.current is not None and tab.current.id == first.id, 10, "the other opened"
    )
    await until(lambda: not pair.isVisible(), 10, "the pair hidden on an unmarked one")
    assert tab.below_page.currentWidget() is tab.lines_grid and tab.below_page.count() == 1


@QASYNC
async def test_not_a_duplicate_beside_the_pair_clears_it(window: Any) -> None:
    _first_job, _first, second_job = _pair(window.ctx.app)
    tab = await _shown(window, second_job)
    tab.not_duplicate_button.click()
    await until(lambda: not tab.duplicate_pair.isVisible(), 10, "the pair gone")
    (doc,) = window.ctx.app.documents(second_job)
    assert doc.review_codes == [] and doc.audit[-1]["action"] == "not_duplicate"


@QASYNC
async def test_a_document_named_but_gone_is_said_and_cannot_be_opened(window: Any) -> None:
    mark = ReviewCode("likely_duplicate", params={"document": 7, "job": 3, "file": "scan.pdf"})
    tab = await open_review(window, boxed_job(window.ctx.app, codes=[mark]))
    pair = tab.duplicate_pair
    await until(lambda: "no longer stored" in pair.where.text(), 10, "the words")
    assert pair.isVisible() and not pair.page.isVisible() and not pair.open_button.isEnabled()
    assert tab.not_duplicate_button.isVisible()


@QASYNC
@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(1024, 640), (1600, 1000)])
@pytest.mark.slow  # builds the main window
async def test_screenshot_of_the_pair(
    gui_settings: Any, qsettings: Any, tmp_path: Path, language: str, size: tuple[int, int]
) -> None:
    """The window on the pair, grabbed offscreen; DOCBATCH_SCREENSHOT_DIR keeps them."""
    from docbatch_gui._qt.build import build_window
    from docbatch_gui._qt.tasks import drain

    with interface_in(language):
        win = build_window(gui_settings, qsettings)
        win.resize(*size)
        win.show()
        await win.start()
        try:
            await until(lambda: win.ctx.host.app.recovered, what="startup recovery")
            _first_job, _first, second_job = _pair(win.ctx.app)
            tab = await _shown(win, second_job)
            assert tab.duplicate_pair.width() > 100 and tab.page_view.width() > 100
            # at 1024 px the pair beside the page made Review 1,069 px wide: the tab
            # scrolled sideways and Confirm and the fields' ends were cut
            await drain()
            QApplication.processEvents()
            area = win.tabs.widget(win.tabs.currentIndex())
            wide = tab.minimumSizeHint().width()
            assert not area.horizontalScrollBar().isVisible(), f"Review {wide} px wide"
            assert not clipped_controls(win), clipped_controls(win)
            folder = Path(os.environ.get("DOCBATCH_SCREENSHOT_DIR") or tmp_path)
            folder.mkdir(parents=True, exist_ok=True)
            name = f"review_duplicates_{language}_{size[0]}x{size[1]}.png"
            assert win.grab().save(str(folder / name))
        finally:
            await drain()
            await win.shutdown()
            win.ctx.host.close()
            win.deleteLater()
