"""Review says things where the eye is: the dots' legend beside the fields, a field a
check doubts marked on its editor, field labels in the reasons, local times."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from docbatch_gui._qt.review.fields import (
    DOUBTED_COLOR,
    MISSING_COLOR,
    SURE_COLOR,
    UNSURE_COLOR,
    ConfidenceLegend,
)
from docbatch_gui._qt.review.form import local_time
from docbatch_gui.domain.reasons import ReviewCode
from tests.gui.review_helpers import boxed_job, open_review

QASYNC = pytest.mark.asyncio(loop_factories=["qasync"])


@pytest.fixture
def yekaterinburg() -> Iterator[None]:
    """The operator's clock at UTC+5 (no summer time there), put back after."""
    saved = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Yekaterinburg"
    time.tzset()
    yield
    if saved is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = saved
    time.tzset()


@QASYNC
async def test_the_legend_says_what_each_dot_colour_means(window: Any) -> None:
    tab = await open_review(window, boxed_job(window.ctx.app))
    legend = tab.findChild(ConfidenceLegend)
    assert legend is not None and legend.isVisible()
    colors = [color.name() for color, _, _ in legend.entries]
    assert colors == [MISSING_COLOR, UNSURE_COLOR, SURE_COLOR, DOUBTED_COLOR]
    assert len(set(colors)) == 4  # one meaning per colour
    assert [word for _, word, _ in legend.entries] == ["missing", "unsure", "sure", "doubted"]
    for color, word, _ in legend.entries:
        assert color.name() in legend.text() and word in legend.text()
    assert "85% or more" in legend.toolTip() and "under 85%" in legend.toolTip()


def dot(tab: Any, key: str) -> str:
    """The colour of a field's dot, read off its pixmap."""
    return tab.markers[key].pixmap().toImage().pixelColor(6, 6).name()


@QASYNC
async def test_each_mark_has_one_meaning_and_its_reason_in_words(window: Any) -> None:
    """A value read with low confidence was red, as "not found" is; the "!" repeated
    the confidence; an amber amount said no reason."""
    codes = [
        ReviewCode("inn_invalid", "seller_tax_id", {"value": "7700000001"}),
        ReviewCode("low_confidence", "number", {"confidence": 0.4}),
        ReviewCode("type_unknown"),
    ]
    app = window.ctx.app
    job_id = boxed_job(app, codes=codes)
    (doc,) = app.store.list_documents(job_id)
    # an amount read at 70%, which no check doubts
    app.store.update_document(replace(doc, confidence={**doc.confidence, "amount": 0.7}))
    tab = await open_review(window, job_id)
    # a check doubts the INN: the "!" in its own colour, its tooltip the reason
    wrong = tab.editors["seller_tax_id"]
    assert wrong.problem.isVisible() and DOUBTED_COLOR in wrong.styleSheet()
    assert wrong.problem.toolTip() == "Seller tax ID: INN 7700000001 fails the checksum"
    assert dot(tab, "seller_tax_id") == DOUBTED_COLOR
    # read at 40%: unsure (amber, not the red of "missing"), said in words, no "!"
    unsure = tab.editors["number"]
    assert dot(tab, "number") == UNSURE_COLOR
    assert not unsure.problem.isVisible()
    assert "Unsure: the reader is only 40% sure of this value" in unsure.toolTip()
    # the amber amount says why it is amber
    assert dot(tab, "amount") == UNSURE_COLOR
    assert "only 70% sure" in tab.markers["amount"].toolTip()
    # a value not found is the only red one
    assert dot(tab, "seller") == MISSING_COLOR
    assert tab.markers["seller"].toolTip().startswith("Missing: not found")
    assert dot(tab, "date") == SURE_COLOR
    # the reasons above the buttons use the labels, never the keys
    reasons = tab.reasons.text()
    assert "Seller tax ID: INN 7700000001" in reasons and "seller_tax_id" not in reasons
    assert "document type unknown" in reasons

    # the next document has no such reasons: the marks go
    codes_gone = boxed_job(window.ctx.app, codes=[])
    tab = await open_review(window, codes_gone)
    assert not tab.editors["seller_tax_id"].problem.isVisible()
    assert tab.editors["seller_tax_id"].styleSheet() == ""


@QASYNC
async def test_history_shows_local_time(window: Any, yekaterinburg: None) -> None:
    audit = [
        {
            "at": "2024-03-05T10:00:00+00:00",
            "who": "anna",
            "action": "edit",
            "field": "number",
            "old": "100",
            "new": "100-A",
        }
    ]
    tab = await open_review(window, boxed_job(window.ctx.app, audit=audit))
    line = tab.history.toPlainText()
    assert line.startswith("2024-03-05 15:00 anna:"), line
    assert "Number 100 → 100-A" in line
    assert "10:00" not in line


def test_local_time_keeps_what_it_cannot_read(yekaterinburg: None) -> None:
    assert local_time("2024-12-31T22:30:00+00:00") == "2025-01-01 03:30"
    assert local_time("yesterday") == "yesterday"


@QASYNC
async def test_not_a_duplicate_clears_the_mark_and_the_button_goes(window: Any) -> None:
    from tests.gui.conftest import until

    mark = ReviewCode("likely_duplicate", params={"document": 7, "job": 3, "file": "scan.pdf"})
    job_id = boxed_job(window.ctx.app, codes=[mark])
    tab = await open_review(window, job_id)
    assert tab.not_duplicate_button.isVisible()
    assert "document 7 of job 3 (scan.pdf)" in tab.reasons.text()
    tab.not_duplicate_button.click()
    await until(lambda: not tab.not_duplicate_button.isVisible(), 10, "the mark cleared")
    (doc,) = window.ctx.app.documents(job_id)
    assert doc.review_codes == [] and doc.audit[-1]["action"] == "not_duplicate"
    assert doc.audit[-1]["new"] == "7"


@QASYNC
async def test_an_inn_failing_its_checksum_is_marked_as_it_is_typed(window: Any) -> None:
    """Not only after Ctrl+S: the check runs on each keystroke, nothing is saved."""
    from PySide6.QtTest import QTest

    app = window.ctx.app
    job_id = boxed_job(app, codes=[])
    tab = await open_review(window, job_id)
    inn = tab.editors["seller_tax_id"]
    assert not inn.problem.isVisible()
    inn.setFocus()
    QTest.keyClicks(inn, "7700000001")
    assert inn.problem.isVisible() and DOUBTED_COLOR in inn.styleSheet()
    assert "INN 7700000001 fails the checksum" in inn.problem.toolTip()
    assert dot(tab, "seller_tax_id") == DOUBTED_COLOR
    inn.clear()
    QTest.keyClicks(inn, "7707083893")  # a real INN: its checksum holds
    assert not inn.problem.isVisible() and inn.styleSheet() == ""
    (stored,) = app.store.list_documents(job_id)
    assert stored.fields.get("seller_tax_id") is None  # typing stores nothing
