"""Narrowing a document's pages leaves pages in no document: the operator is told
which, at once, and the list shows the new range without a restart."""

from __future__ import annotations

from typing import Any

import pytest

from docbatch_gui._qt.review.tab import page_ranges
from tests.gui.review_helpers import boxed_job, open_review

QASYNC = pytest.mark.asyncio(loop_factories=["qasync"])


def test_page_ranges_read_as_a_person_writes_them() -> None:
    assert page_ranges([31, 32, 33, 40, 5]) == "5, 31–33, 40"


@QASYNC
async def test_pages_left_in_no_document_are_said_and_the_list_follows(window: Any) -> None:
    told: list[tuple[str, str]] = []
    window.ctx.notifier.shown.connect(lambda text, level: told.append((text, level)))
    job_id = boxed_job(window.ctx.app)
    tab = await open_review(window, job_id)
    assert tab.tree.currentItem().text(1) == "1–2"
    tab.page_to.setValue(1)
    await tab.save()
    assert tab.tree.currentItem().text(1) == "1"  # at once, not after a restart
    assert window.ctx.app.review.uncovered_pages(job_id) == [2]
    warnings = [text for text, level in told if level == "warning"]
    assert warnings and warnings[0].startswith("Pages 2 now belong to no document"), told
