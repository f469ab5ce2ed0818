"""A count in the window takes the plural form of its language: "1 job", "2 jobs";
"1 задание", "2 задания", "5 заданий" (and "21 задание"), from the catalogue's
``ngettext`` entries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from docbatch_gui._qt.queue.held_bar import HeldBar
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState, ProcessingMode
from tests.gui.conftest import interface_in, until

COUNTS_LINE = {
    "en": {
        1: "1 job · 0 done · 0 to review · 0 failed",
        2: "2 jobs · 0 done · 0 to review · 0 failed",
        5: "5 jobs · 0 done · 0 to review · 0 failed",
    },
    "ru": {
        1: "1 задание · готово: 0 · проверить: 0 · ошибок: 0",
        2: "2 задания · готово: 0 · проверить: 0 · ошибок: 0",
        5: "5 заданий · готово: 0 · проверить: 0 · ошибок: 0",
    },
}
HELD = {
    "en": {
        1: "1 queued job held: it is",
        2: "2 queued jobs held: they are",
        5: "5 queued jobs held: they are",
        21: "21 queued jobs held: they are",
    },
    "ru": {
        1: "Задержано 1 задание в очереди: его",
        2: "Задержано 2 задания в очереди: их",
        5: "Задержано 5 заданий в очереди: их",
        21: "Задержано 21 задание в очереди: его",
    },
}


def duplicate(job_id: int) -> Job:
    name = f"scan_{job_id}.pdf"
    return Job(
        id=job_id,
        file_name=name,
        source_path=f"/in/{name}",
        sha256=f"{job_id:064x}",
        size=10,
        mode=ProcessingMode.OFFLINE,
        state=JobState.DUPLICATE,
        phase=None,
    )


@pytest.fixture(params=["en", "ru"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    with interface_in(request.param) as language:
        yield language


def test_the_held_jobs_line_counts_in_the_window_language(language: str) -> None:
    bar = HeldBar()
    for count, start in HELD[language].items():
        bar.show_count(count)
        assert bar.text.text().startswith(start), bar.text.text()


@pytest.mark.slow
@pytest.mark.asyncio(loop_factories=["qasync"])
async def test_the_queue_counts_jobs_in_the_window_language(language: str, window: Any) -> None:
    """Jobs shown to the queue (duplicates, which nothing processes, so the line
    holds still while the test reads it)."""
    tab = window.queue_tab
    made = 0
    for count, line in COUNTS_LINE[language].items():
        jobs = []
        while made < count:
            made += 1
            jobs.append(duplicate(made))
        window.ctx.bridge.publish(jobs)
        await until(lambda line=line: tab.counts.text() == line, what=line)
