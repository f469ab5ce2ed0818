"""Review: an edit is saved with who and when, and confirming moves the job to done."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from docbatch_gui._qt.tasks import drain
from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Document, NewJob, Page
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.domain.states import JobState
from tests.gui.conftest import signal_future, until

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])


def waiting_job(app: DocBatchApp, documents: int = 2, passed: frozenset[int] = frozenset()) -> int:
    """A two-page job in needs_review, as the engine leaves one (the documents in
    ``passed`` found with no problem)."""
    store = app.store
    job = store.create_job(NewJob("scan.pdf", "/tmp/scan.pdf", "ab" * 32, 100, "offline"))
    store.claim(job.id, JobState.PREPARING)
    buffer = io.BytesIO()
    Image.new("L", (600, 800), 230).save(buffer, "JPEG")
    image = app.blobs.put_bytes(buffer.getvalue())
    store.put_pages([Page(job.id, n, 600, 800, image_sha=image, deliverable=True) for n in (1, 2)])
    store.transition(job.id, JobState.BUILDING, pages=2)
    store.replace_documents(
        job.id,
        [
            Document(
                job.id,
                index,
                "invoice",
                index + 1,
                index + 1,
                fields={"number": f"10{index}", "date": None, "amount": "50.00"},
                confidence={"number": 0.4, "amount": 0.95},
                needs_review=index not in passed,
                review_codes=[] if index in passed else [ReviewCode("field_missing", "date")],
            )
            for index in range(documents)
        ],
    )
    store.transition(job.id, JobState.NEEDS_REVIEW)
    return job.id


async def test_review_edit_is_saved_and_confirming_all_moves_the_job_to_done(window: Any) -> None:
    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app)
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    # Showing the tab starts a refresh of its own: once it has rebuilt the tree, nothing
    # reloads the form (and drops the edits below) behind the test's back.
    await drain()
    await tab.refresh()
    assert tab.select(job_id, 0)
    await until(lambda: tab.current is not None and tab.current.doc_index == 0, what="form")
    tab.editors["date"].setText("05.03.2024")
    tab.editors["number"].setText("100-A")
    confirmed = signal_future(tab.confirmed)
    tab.confirm_button.click()
    assert await confirmed == (job_id, 0)

    first = app.review.document(job_id, 0)
    assert first.fields["date"] == "2024-03-05"  # stored normalised
    assert first.fields["number"] == "100-A"
    assert first.confidence["number"] == 1.0
    assert first.confirmed_by == window.ctx.operator
    edits = {(e["field"], e["old"], e["new"]) for e in first.audit if e["action"] == "edit"}
    assert edits == {("date", None, "2024-03-05"), ("number", "100", "100-A")}
    assert all(e["who"] == window.ctx.operator and e["at"] for e in first.audit)
    # one document left: the job still waits; confirm moved to the next document
    assert app.store.get_job(job_id).state is JobState.NEEDS_REVIEW
    await until(lambda: tab.current is not None and tab.current.doc_index == 1, what="next doc")

    confirmed = signal_future(tab.confirmed)
    tab.confirm_button.click()
    await confirmed
    assert app.store.get_job(job_id).state is JobState.DONE
    await until(
        lambda: (
            (job := window.queue_tab.model.job(job_id)) is not None and job.state is JobState.DONE
        ),
        what="queue row done",
    )


async def test_an_unreadable_date_is_refused_and_nothing_is_saved(window: Any) -> None:
    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app, documents=1)
    tab = window.review_tab
    await tab.refresh()
    tab.select(job_id, 0)
    await until(lambda: tab.current is not None, what="form")
    errors = signal_future(window.ctx.notifier.shown)
    tab.editors["date"].setText("sometime in spring")
    tab.confirm_button.click()
    text, level = await errors
    assert level == "error" and "not a date" in text
    assert app.store.get_job(job_id).state is JobState.NEEDS_REVIEW
    assert app.review.document(job_id, 0).audit == []


async def test_type_and_page_range_changes_are_audited(window: Any) -> None:
    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app, documents=1)
    tab = window.review_tab
    await tab.refresh()
    tab.select(job_id, 0)
    await until(lambda: tab.current is not None, what="form")
    tab.type_combo.setCurrentIndex(tab.type_combo.findData("act"))
    tab.page_to.setValue(2)
    saved = signal_future(tab.saved)
    tab.save_button.click()
    await saved
    doc = app.review.document(job_id, 0)
    assert (doc.doc_type, doc.page_from, doc.page_to) == ("act", 1, 2)
    assert [e["action"] for e in doc.audit] == ["type", "pages"]


async def test_the_page_view_says_why_a_page_has_no_image_or_needs_turning(window: Any) -> None:
    """A page the renderer gave up and a page of uncertain orientation are said above
    the page, in words; the orientation evidence is the page number's tooltip."""
    from dataclasses import replace

    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app, documents=1)
    first, second = app.pages(job_id)
    app.store.put_pages(
        [
            replace(
                first,
                image_sha=None,
                render_error=Message.plain("rendering took longer than 60 s"),
            ),
            replace(
                second,
                orientation_uncertain=True,
                orientation_note=Message.plain(
                    "OSD at 300 dpi: 180° (score 1.20), under the 5 needed"
                ),
            ),
        ]
    )
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    # Review opens on the first document: let it, so its pages do not replace these
    await until(lambda: tab.current is not None, what="the first document shown")
    await drain()
    view = tab.page_view
    view.show_pages(job_id, [1, 2])
    await until(lambda: "could not be rendered" in view.warning.text(), what="skipped page")
    assert "rendering took longer than 60 s" in view.warning.text()
    assert "source file" in view.warning.text()
    await until(lambda: "has no image" in view.label.text(), what="no image")
    view.go(1)
    await until(lambda: "Orientation uncertain" in view.warning.text(), what="uncertain")
    assert "OSD at 300 dpi: 180°" in view.where.toolTip()
    assert not view.warning.isHidden()


async def test_in_russian_the_page_notes_read_in_russian(russian: None, window: Any) -> None:
    """A page's skip reason and orientation note are messages the core worded in
    English: a Russian window words them again in Russian; an old page's plain text is
    shown as it was stored."""
    from dataclasses import replace

    from docbatch_gui.domain.messages import coded
    from docbatch_gui.pipeline.orientation import from_osd

    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app, documents=1)
    first, second = app.pages(job_id)
    weak = from_osd(180, 1.2, 300).note
    app.store.put_pages(
        [
            replace(
                first,
                image_sha=None,
                render_error=coded("page_render_timeout", seconds=60.0),
                orientation_note=coded("orient_small_image"),
            ),
            replace(second, orientation_uncertain=True, orientation_note=weak),
        ]
    )
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    # Review opens on the first document: let it, so its pages do not replace these
    await until(lambda: tab.current is not None, what="the first document shown")
    await drain()
    view = tab.page_view
    view.show_pages(job_id, [1, 2])
    await until(lambda: "не удалось отрисовать" in view.warning.text(), what="skipped page")
    assert "отрисовка заняла больше 60 с (PAGE_TIMEOUT)" in view.warning.text()
    assert "rendering" not in view.warning.text()
    assert view.where.toolTip() == "маленькое изображение: прочитано увеличенным, без OSD"
    view.go(1)
    await until(lambda: "под сомнением" in view.warning.text(), what="uncertain")
    assert "OSD при разрешении 300 точек на дюйм: 180° (оценка 1.20)" in view.warning.text()
    assert "меньше нужных 5" in view.where.toolTip()
    assert "score" not in view.warning.text() + view.where.toolTip()
    old = Message.plain("OSD old")
    app.store.put_pages([replace(second, orientation_uncertain=True, orientation_note=old)])
    view.go(0)
    await until(lambda: "не удалось отрисовать" in view.warning.text(), what="first page again")
    view.go(1)
    await until(lambda: view.where.toolTip() == "OSD old", what="an old page's plain note")


async def test_review_opens_on_the_first_document_needing_review(window: Any) -> None:
    """Not on "No page": the first document waiting for a person's check is selected
    (the first one confirmed already is passed over)."""
    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app, documents=2)
    app.review.confirm(job_id, 0, who="anna")
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    await until(lambda: tab.current is not None, what="a document shown by itself")
    assert (tab.current.job_id, tab.current.doc_index) == (job_id, 1)


async def test_every_document_in_the_list_has_its_mark(window: Any) -> None:
    """A document no check doubted and no person confirmed had no mark in the list
    ("2. Акт 45" beside a "!" and a "✓"): each now has one, its meaning in the tooltip."""
    app: DocBatchApp = window.ctx.app
    job_id = waiting_job(app, documents=3, passed=frozenset({2}))
    app.review.confirm(job_id, 0, who="anna")
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    await until(lambda: len(tab._doc_items()) == 3, what="the three documents listed")
    confirmed, doubted, passed = tab._doc_items()
    images = [item.icon(0).pixmap(16, 16).toImage() for item in (confirmed, doubted, passed)]
    assert not any(image.isNull() for image in images)
    assert len({image.pixel(8, 8) for image in images}) == 3  # three colours, three meanings
    assert "not confirmed yet" in passed.toolTip(0)
    assert "Confirmed by anna" in confirmed.toolTip(0)
