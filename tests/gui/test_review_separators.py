"""Review shows where separator sheets split a file (each sheet a row of its own, no
document) and a person moves a split with the page-range editor: the sheet becomes
the document's page, recorded as the person's change."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from docbatch_gui.domain.models import Document, NewJob, Page
from docbatch_gui.domain.states import JobState
from tests.gui.review_helpers import PAGE, open_review, page_png

QASYNC = pytest.mark.asyncio(loop_factories=["qasync"])


def split_job(app: Any) -> int:
    """Four pages, a separator sheet on page 2: documents 1 and 3–4."""
    store = app.store
    job = store.create_job(NewJob("stack.pdf", "/tmp/stack.pdf", "ef" * 32, 100, "offline"))
    store.claim(job.id, JobState.PREPARING)
    image = app.blobs.put_bytes(page_png())
    store.put_pages(
        [Page(job.id, n, *PAGE, image_sha=image, deliverable=True) for n in (1, 2, 3, 4)]
    )
    store.transition(job.id, JobState.BUILDING, pages=4)
    store.update_job(
        job.id, split={"separators": [2], "segments": [[1, 1], [3, 4]], "asn": [None, None]}
    )
    store.replace_documents(
        job.id,
        [
            Document(job.id, 0, "invoice", 1, 1, fields={"number": "101"}, needs_review=True),
            Document(job.id, 1, "act", 3, 4, fields={"number": "7"}, needs_review=True),
        ],
    )
    store.transition(job.id, JobState.NEEDS_REVIEW)
    return job.id


def rows(tab: Any) -> list[tuple[str, str, bool]]:
    (top,) = [tab.tree.topLevelItem(i) for i in range(tab.tree.topLevelItemCount())]
    children = [top.child(i) for i in range(top.childCount())]
    return [(c.text(0), c.text(1), tab._key(c) is not None) for c in children]


@QASYNC
async def test_the_sheet_is_shown_as_a_sheet_and_a_person_moves_the_split(
    window: Any, tmp_path: Path
) -> None:
    from tests.gui.conftest import until

    app = window.ctx.app
    job_id = split_job(app)
    tab = await open_review(window, job_id)
    assert rows(tab) == [
        ("1. Invoice 101", "1", True),
        ("Separator sheet", "2", False),  # a page, not a document
        ("2. Act / certificate of completion 7", "3–4", True),
    ]
    (top,) = [tab.tree.topLevelItem(0)]
    sheet = top.child(1)
    assert not sheet.flags() & sheet.flags().ItemIsSelectable
    assert "widen a neighbouring document's pages over it" in sheet.toolTip(0)
    assert tab.split_note.text() == "before the separator sheet on page 2"
    folder = Path(os.environ.get("DOCBATCH_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(folder / "review_separators.png"))  # to look at
    tab.move_by(1)  # PgDown goes to the next document, past the sheet
    await until(lambda: tab.current is not None and tab.current.doc_index == 1, 10, "doc 2")
    assert tab.split_note.text() == "after the separator sheet on page 2"

    # the sheet was a page of the act: the act is 2–4 now, and the split has moved
    tab.page_from.setValue(2)
    await tab.save()
    await until(lambda: len(rows(tab)) == 2, 10, "the sheet's row gone")
    assert rows(tab) == [
        ("1. Invoice 101", "1", True),
        ("2. Act / certificate of completion 7", "2–4", True),
    ]
    job = app.store.get_job(job_id)
    assert job.split["separators"] == []
    (moved,) = job.split["moved"]
    assert moved["page"] == 2 and moved["who"] == window.ctx.operator
    (doc,) = [d for d in app.documents(job_id) if d.doc_index == 1]
    assert [(e["action"], e["new"]) for e in doc.audit] == [
        ("pages", "2-4"),
        ("separator_taken", 2),
    ]
    await until(lambda: tab.split_note.text() == "", 10, "the form reloaded with the new split")
    assert tab.current is not None and tab.current.doc_index == 1
    assert "moved a split: took in the separator sheet on page 2" in tab.history.toPlainText()
