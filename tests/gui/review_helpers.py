"""Review tests' documents: a job waiting for review whose page has a black block at a
known place, and the tab opened on it."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageChops, ImageDraw
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Document, NewJob, Page
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.domain.states import JobState
from tests.gui.conftest import until

#: the page's size in pixels, and where the black block (the "value") stands on it
PAGE = (600, 800)
BLOCK = (150, 200, 330, 240)
#: the block in fractions of the page, as a reader gives a value's location
BOX = (BLOCK[0] / PAGE[0], BLOCK[1] / PAGE[1], BLOCK[2] / PAGE[0], BLOCK[3] / PAGE[1])


def page_png() -> bytes:
    image = Image.new("RGB", PAGE, (235, 235, 235))
    ImageDraw.Draw(image).rectangle((BLOCK[0], BLOCK[1], BLOCK[2] - 1, BLOCK[3] - 1), fill=0)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def boxed_job(
    app: DocBatchApp,
    documents: int = 1,
    codes: list[ReviewCode] | None = None,
    audit: list[dict[str, Any]] | None = None,
) -> int:
    """A two-page job in needs_review; each document's number stands in BOX on page 1,
    its amount on page 2, its date has no location."""
    store = app.store
    job = store.create_job(NewJob("boxed.pdf", "/tmp/boxed.pdf", "cd" * 32, 100, "offline"))
    store.claim(job.id, JobState.PREPARING)
    image = app.blobs.put_bytes(page_png())
    pages = [Page(job.id, n, *PAGE, image_sha=image, deliverable=True) for n in (1, 2)]
    store.put_pages(pages)
    store.transition(job.id, JobState.BUILDING, pages=2)
    store.replace_documents(
        job.id,
        [
            Document(
                job.id,
                index,
                "invoice",
                1,
                2,
                fields={"number": f"10{index}", "date": "2024-03-05", "amount": "50.00"},
                confidence={"number": 0.4, "date": 0.9, "amount": 0.95},
                needs_review=True,
                review_codes=codes
                if codes is not None
                else [ReviewCode("low_confidence", "number", {"confidence": 0.4})],
                locations={
                    "number": {"page": 1, "box": list(BOX)},
                    "amount": {"page": 2, "box": [0.5, 0.9, 0.7, 0.95]},
                },
                audit=list(audit or []),
            )
            for index in range(documents)
        ],
    )
    store.transition(job.id, JobState.NEEDS_REVIEW)
    return job.id


async def open_review(window: Any, job_id: int, doc_index: int = 0) -> Any:
    """The Review tab, active, showing the document."""
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    window.activateWindow()
    await tab.refresh()
    assert tab.select(job_id, doc_index)
    await until(
        lambda: (
            tab.current is not None
            and (tab.current.job_id, tab.current.doc_index) == (job_id, doc_index)
        ),
        what="form",
    )
    await until(
        lambda: tab.page_view.shown is not None and tab.page_view.shown[0] == job_id,
        what="page loaded",
    )
    return tab


def dark_area(image: QImage) -> QRect:
    """Where the black block shows in a grab of the page (the translucent box over it
    lightens it a little; the box's outline is coloured, not dark)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height = rgb.width(), rgb.height()
    data = bytes(rgb.constBits())[: rgb.bytesPerLine() * height]
    grab = Image.frombuffer("RGB", (width, height), data, "raw", "RGB", rgb.bytesPerLine(), 1)
    masks = [channel.point(lambda v: 255 if v < 90 else 0) for channel in grab.split()]
    mask = ImageChops.logical_and(
        ImageChops.logical_and(masks[0].convert("1"), masks[1].convert("1")),
        masks[2].convert("1"),
    )
    box = mask.getbbox()
    assert box is not None, "the block is not on screen"
    return QRect(box[0], box[1], box[2] - box[0], box[3] - box[1])
