"""Offline extraction in a render child: the same documents as in-process, and a
stalled or crashed extractor is a job error (timeout, child died), never a hang."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from docbatch_gui.config.profile import Profile, load_profile
from docbatch_gui.pipeline.isolate import ChildPool
from docbatch_gui.pipeline.offline import PageText, extract_documents
from docbatch_gui.pipeline.offline_run import extract_in_child
from docbatch_gui.pipeline.prepare import ChildDied, PrepareTimeout, prepare_pool

REPO = Path(__file__).resolve().parents[2]
FAKE = "tests.fakes.stuck_child"
PAGES = [
    PageText(1, "СЧЁТ НА ОПЛАТУ № 17 от 05.03.2024\nПоставщик: ООО «Ромашка»\nИтого: 1 200,00"),
    PageText(2, "АКТ № 9 от 06.03.2024\nВсего: 500,00 руб.", "tesseract"),
]


@pytest.fixture(autouse=True)
def _repo_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the fake child is imported from the repository


@pytest.fixture(scope="module")
def profile() -> Profile:
    return load_profile()


@pytest.mark.slow  # starts a render child
def test_the_child_finds_what_the_extractor_finds_in_process(profile: Profile) -> None:
    async def main() -> list:
        async with prepare_pool(1) as pool:
            return await extract_in_child(
                pool, 3, "scan.pdf", PAGES, profile, time.monotonic() + 60
            )

    assert asyncio.run(main()) == extract_documents(3, "scan.pdf", PAGES, profile)


@pytest.mark.slow  # starts a child
def test_a_stalled_extractor_is_killed_at_the_deadline(profile: Profile) -> None:
    async def main() -> None:
        async with ChildPool(FAKE, 1) as pool:
            await extract_in_child(pool, 1, "hang", PAGES, profile, time.monotonic() + 1.0)

    started = time.monotonic()
    with pytest.raises(PrepareTimeout) as caught:
        asyncio.run(main())
    # not the 600 s the child sleeps (a bound no loaded machine reaches: about 2 s)
    assert time.monotonic() - started < 300
    assert caught.value.termination_confirmed is True
    assert "JOB_TIMEOUT" in caught.value.text


@pytest.mark.slow  # starts a child
def test_a_crashed_extractor_is_a_child_death_counted_against_the_file(
    profile: Profile,
) -> None:
    async def main() -> None:
        async with ChildPool(FAKE, 1) as pool:
            await extract_in_child(pool, 1, "crash", PAGES, profile, time.monotonic() + 30)

    with pytest.raises(ChildDied, match="offline extractor stopped unexpectedly"):
        asyncio.run(main())
