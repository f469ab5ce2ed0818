"""The small image of a text page, made by the render child for Claude's requests:
a batch request sends the child's bytes, an offline job's child makes none, and a
page stored without one (or with one of another size) is shrunk as before."""

from __future__ import annotations

import asyncio
import base64
import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.domain.models import Job, Page
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.extraction import group_request
from docbatch_gui.pipeline.page_plan import small_size
from docbatch_gui.settings.model import Settings
from tests import builders
from tests.fakes.anthropic_server import FakeAnthropic

pytestmark = pytest.mark.slow  # renders whole files in children

EXTRACTED = (JobState.DONE, JobState.NEEDS_REVIEW)


def run(app: DocBatchApp, paths: list[Path], mode: str) -> list[Job]:
    return asyncio.run(app.run([j.id for j in app.add(paths, mode=mode).jobs]))


def sent_images(params: dict) -> list[bytes]:
    content = params["messages"][0]["content"]
    return [base64.b64decode(b["source"]["data"]) for b in content if b["type"] == "image"]


def jpeg_of(size: tuple[int, int], shade: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", size, shade).save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


def request_images(app: DocBatchApp, job: Job, pages: list[Page]) -> list[bytes]:
    """The images of the job's one request, built again from the stored pages."""
    request = group_request(app.blobs, app.settings, app.profile, job, 1, pages, len(pages))
    return sent_images(request.params)


def test_a_batch_request_sends_the_small_image_the_render_child_made(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    (job,) = run(app, [builders.invoice_pdf(tmp_path / "born.pdf", number="245")], "batch")
    assert job.state in EXTRACTED, job.error
    (page,) = app.store.list_pages(job.id)
    assert page.text_layer == "reliable" and page.small_image_sha is not None
    small = app.blobs.read(page.small_image_sha)
    planned = small_size(app.profile.page_plan.small_long_edge, page.width, page.height)
    assert Image.open(io.BytesIO(small)).size == planned < (page.width, page.height)
    (post,) = [
        r.json
        for r in fake_anthropic.requests
        if r.method == "POST" and r.path == "/v1/messages/batches"
    ]
    (entry,) = post["requests"]
    assert sent_images(entry["params"]) == [small]
    # the request is built from the stored small image, not from the full page: a
    # small image of the same size but other pixels is what goes
    other = jpeg_of(planned, 255)
    marked = replace(page, small_image_sha=app.blobs.put_bytes(other))
    assert request_images(app, job, [marked]) == [other]
    app.close()


def test_a_page_without_a_small_image_of_the_plans_size_is_shrunk_as_its_request_is_built(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    """A page stored before small images were made, or whose plan's size was edited
    since (another ``small_long_edge``), goes with the full page shrunk, as before."""
    app = DocBatchApp(claude_settings.model_copy(update={"poll_interval": 0.05}))
    (job,) = run(app, [builders.invoice_pdf(tmp_path / "born.pdf")], "batch")
    (page,) = app.store.list_pages(job.id)
    assert page.small_image_sha is not None
    planned = small_size(app.profile.page_plan.small_long_edge, page.width, page.height)
    old = replace(page, small_image_sha=None)
    stale = replace(page, small_image_sha=app.blobs.put_bytes(jpeg_of((100, 141), 255)))
    missing = replace(page, small_image_sha="f" * 64)
    for stored in (old, stale, missing):
        (image,) = request_images(app, job, [stored])
        assert Image.open(io.BytesIO(image)).size == planned
        assert image == app.blobs.read(page.small_image_sha)  # the same shrink, made here
    app.close()


def test_an_offline_job_makes_no_small_image(settings: Settings, tmp_path: Path) -> None:
    """Offline jobs send nothing to Claude: their render child makes no small image
    (nor the verdict it follows from)."""
    app = DocBatchApp(settings)
    (job,) = run(app, [builders.invoice_pdf(tmp_path / "born.pdf", number="245")], "offline")
    assert job.state in EXTRACTED, job.error
    (page,) = app.store.list_pages(job.id)
    assert page.text.strip() and page.small_image_sha is None
    app.close()
