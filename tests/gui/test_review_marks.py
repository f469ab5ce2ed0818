"""Review says things where the eye is: the dots' legend beside the fields, a field a
check doubts marked on its editor, field labels in the reasons, local times."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from docbatch_gui._qt.review.fields import DOUBT_COLOR, WRONG_COLOR, ConfidenceLegend
from docbatch_gui._qt.review.form import local_time
from docbatch_gui._qt.widgets.icons import confidence_color
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
    expected = [confidence_color(c).name() for c in (0.9, 0.7, 0.1, None)]
    assert colors == expected  # green, amber, red, grey
    assert [word for _, word, _ in legend.entries] == ["sure", "unsure", "not found", "no score"]
    for color, word, _ in legend.entries:
        assert color.name() in legend.text() and word in legend.text()
    assert "85% or more" in legend.toolTip() and "60–84%" in legend.toolTip()


@QASYNC
async def test_a_field_a_check_refuses_is_marked_on_its_editor(window: Any) -> None:
    codes = [
        ReviewCode("inn_invalid", "seller_tax_id", {"value": "7700000001"}),
        ReviewCode("low_confidence", "number", {"confidence": 0.4}),
        ReviewCode("type_unknown"),
    ]
    tab = await open_review(window, boxed_job(window.ctx.app, codes=codes))
    wrong = tab.editors["seller_tax_id"]
    assert wrong.problem.isVisible()
    assert WRONG_COLOR in wrong.styleSheet()
    assert "Seller tax ID: INN 7700000001 fails the checksum" in wrong.toolTip()
    assert wrong.problem.toolTip() == "Seller tax ID: INN 7700000001 fails the checksum"
    doubted = tab.editors["number"]
    assert doubted.problem.isVisible() and DOUBT_COLOR in doubted.styleSheet()
    assert "Number uncertain (confidence 0.40)" in doubted.toolTip()
    fine = tab.editors["amount"]
    assert not fine.problem.isVisible() and fine.styleSheet() == ""
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
