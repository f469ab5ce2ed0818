"""A page's orientation note keeps its message across the render child's JSON pipe:
the parent gets the same English text, and a code the window words in Russian."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from docbatch_gui.pipeline.prepare import prepare_pool, run_prepare
from docbatch_gui.pipeline.render import PrepareTask, RenderedPage
from tests import builders


async def _render(task: PrepareTask) -> list[RenderedPage]:
    pages: list[RenderedPage] = []

    async def on_count(count: int) -> None:
        pass

    async def on_page(page: RenderedPage) -> None:
        pages.append(page)

    async with prepare_pool(1) as pool:
        await run_prepare(task, time.monotonic() + 60, pool, on_count=on_count, on_page=on_page)
    return pages


@pytest.mark.slow  # starts a render child
def test_the_text_layer_vote_crosses_the_render_child_as_a_message(tmp_path: Path) -> None:
    pdf = builders.text_pdf(tmp_path / "a.pdf")
    (page,) = asyncio.run(_render(PrepareTask(str(pdf), "a.pdf", "pdf")))
    found = page.orientation_note
    assert found is not None and found.code == "orient_vote_upright", found
    assert found.english.startswith("text layer lines: 100% of ")
    assert found.english.endswith(" letters read left to right; upright")
    russian = found.words("ru")
    assert russian.startswith("строки текстового слоя: 100% букв из ")
    assert russian.endswith("читаются слева направо; страница стоит прямо")
