"""The request plan and the batch cache, end to end: what the fake Anthropic API
receives for born-digital pages, scans, and a group that mixes them."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PIL import Image

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.config.profile import default_profile_path, load_profile
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.model import Settings
from tests import builders
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli_json

pytestmark = pytest.mark.slow  # renders, OCRs and sends whole files

EXTRACTED = (JobState.DONE, JobState.NEEDS_REVIEW)


def mixed_pdf(folder: Path) -> Path:
    """Page 1 born-digital, page 2 a scan of another invoice: one request group."""
    born = builders.invoice_pdf(folder / "born.pdf", number="245")
    other = builders.invoice_pdf(folder / "other.pdf", number="246", total="50 000,00")
    scan = builders.scanned_pdf(folder / "scan.pdf", other)
    mixed = pymupdf.open(born)
    with pymupdf.open(scan) as pages:
        mixed.insert_pdf(pages)
    mixed.save(folder / "mixed.pdf")
    return folder / "mixed.pdf"


def profile_file(folder: Path, **page_plan: Any) -> Path:
    data = json.loads(default_profile_path().read_text(encoding="utf-8"))
    data["page_plan"].update(page_plan)
    path = folder / "profile.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def sent_pages(message: dict[str, Any]) -> list[tuple[str, tuple[int, int] | None]]:
    """Each page block's opening tag, with the size of the image right after it."""
    content = message["messages"][0]["content"]
    pages: list[tuple[str, tuple[int, int] | None]] = []
    for index, block in enumerate(content):
        if block["type"] == "text" and block["text"].startswith("<page "):
            follower = content[index + 1] if index + 1 < len(content) else {}
            size = None
            if follower.get("type") == "image":
                data = base64.b64decode(follower["source"]["data"])
                size = Image.open(io.BytesIO(data)).size
            pages.append((block["text"].split("\n", 1)[0], size))
    return pages


def run(app: DocBatchApp, paths: list[Path], mode: str) -> list:
    return asyncio.run(app.run([j.id for j in app.add(paths, mode=mode).jobs]))


def test_a_born_digital_page_goes_as_text_with_a_small_image_and_a_scan_as_a_full_image(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings)
    (job,) = run(app, [mixed_pdf(tmp_path)], "sync")
    assert job.state in EXTRACTED, job.error
    pages = app.store.list_pages(job.id)
    assert [p.text_layer for p in pages] == ["reliable", "none"]  # a scan: no text layer
    assert pages[1].image_cover > 0.9 and pages[0].image_cover == 0
    (message,) = [r.json for r in fake_anthropic.requests if r.path == "/v1/messages"]
    (born, small), (scan, full) = sent_pages(message)  # one group, two kinds
    assert born == '<page index="1" source_page="1" kind="text+small_image">'
    assert scan == '<page index="2" source_page="2">'
    need = max(edge for _task, edge in app.profile.page_plan.image_tasks)
    assert small is not None and max(small) >= need  # never below what the tasks need
    assert full == (pages[1].width, pages[1].height) and max(full) > max(small)
    numbers = sorted(str(d.fields.get("number")) for d in app.documents(job.id))
    assert numbers == ["245", "246"]  # both documents still extracted
    app.close()


def test_without_image_tasks_a_born_digital_page_goes_as_text_only(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings)
    app.profile = load_profile(profile_file(tmp_path, image_tasks={}))
    (job,) = run(app, [mixed_pdf(tmp_path)], "sync")
    assert job.state in EXTRACTED, job.error
    # the first model's request (the bundled profile may escalate a doubt to a second)
    message = next(r.json for r in fake_anthropic.requests if r.path == "/v1/messages")
    assert [(tag, size is not None) for tag, size in sent_pages(message)] == [
        ('<page index="1" source_page="1" kind="text">', False),
        ('<page index="2" source_page="2">', True),
    ]
    assert sorted(str(d.fields.get("number")) for d in app.documents(job.id)) == ["245", "246"]
    app.close()


def test_page_plan_image_sends_every_page_as_a_full_image(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    app = DocBatchApp(claude_settings)
    app.profile = load_profile(profile_file(tmp_path, mode="image"))
    (job,) = run(app, [builders.invoice_pdf(tmp_path / "born.pdf")], "sync")
    (message,) = [r.json for r in fake_anthropic.requests if r.path == "/v1/messages"]
    ((tag, size),) = sent_pages(message)
    (page,) = app.store.list_pages(job.id)
    assert tag == '<page index="1" source_page="1">' and size == (page.width, page.height)
    app.close()


def test_batch_requests_ask_for_the_one_hour_cache_and_report_their_hit_rate(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    settings = claude_settings.model_copy(
        update={"anthropic_model": "claude-sonnet-5-5", "poll_interval": 0.05}
    )
    app = DocBatchApp(settings)
    files = [builders.invoice_pdf(tmp_path / f"{n}.pdf", number=f"{n}") for n in (1, 2, 3)]
    jobs = run(app, files, "batch")
    assert all(j.state in EXTRACTED for j in jobs)
    (post,) = [
        r.json
        for r in fake_anthropic.requests
        if r.method == "POST" and r.path == "/v1/messages/batches"
    ]
    marks = [q["params"]["system"][-1].get("cache_control") for q in post["requests"]]
    assert marks == [{"type": "ephemeral", "ttl": "1h"}] * 3
    app.close()
    env = {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    (batch,) = cli_json(settings.data_dir, "batches", "--json", env=env)
    prompt = batch["input_tokens"] + batch["cache_read_tokens"] + batch["cache_write_tokens"]
    assert batch["cache_write_tokens"] > 0 and batch["cache_read_tokens"] == (
        2 * batch["cache_write_tokens"]  # written by one request, read by the two others
    )
    assert batch["cache_hit_rate"] == round(batch["cache_read_tokens"] / prompt, 4) > 0
    for key in ("cost_actual_usd", "thinking_tokens", "model", "effort"):  # kept as they were
        assert key in batch


def test_a_prefix_under_the_models_minimum_goes_unmarked(
    claude_settings: Settings, fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    """Haiku 5.5 caches 4,096 tokens or more: the prompt's prefix is shorter, so no
    cache is asked for (the API would not write one) and none is estimated."""
    settings = claude_settings.model_copy(
        update={"anthropic_model": "claude-haiku-5-5", "poll_interval": 0.05}
    )
    app = DocBatchApp(settings)
    (job,) = run(app, [builders.invoice_pdf(tmp_path / "a.pdf")], "batch")
    assert job.state in EXTRACTED
    (post,) = [
        r.json
        for r in fake_anthropic.requests
        if r.method == "POST" and r.path == "/v1/messages/batches"
    ]
    assert all("cache_control" not in b for q in post["requests"] for b in q["params"]["system"])
    (batch,) = app.batches()
    assert batch.cache_write_tokens == batch.cache_read_tokens == 0
    assert batch.cache_hit_rate == 0.0
    app.close()


def test_an_offline_job_renders_without_judging_its_pages_for_a_request_plan(
    settings: Settings, tmp_path: Path
) -> None:
    """The verdict feeds only Claude's requests; offline jobs send none, so the render
    child does not run the extractor over every page for it. A page without one goes
    to Claude whole, should it ever be sent."""
    app = DocBatchApp(settings)
    (job,) = run(app, [builders.invoice_pdf(tmp_path / "born.pdf", number="245")], "offline")
    assert job.state in EXTRACTED, job.error
    (page,) = app.store.list_pages(job.id)
    assert page.text_layer == "" and page.text.strip()
