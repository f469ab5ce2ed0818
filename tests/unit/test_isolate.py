"""Isolation: a stuck child and everything it spawned die at the deadline."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from docbatch_gui.pipeline.isolate import (
    DeadlineExceeded,
    group_alive,
    kill_all,
    live_groups,
    run_child,
)

REPO = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


@pytest.fixture(autouse=True)
def _repo_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


async def _run_stuck(deadline_s: float, **payload: object) -> tuple[int, int, bool]:
    async with run_child(
        "tests.fakes.stuck_child", dict(payload), time.monotonic() + deadline_s
    ) as child:
        assert child.process is not None
        pgid = child.process.pid
        grandchild = 0
        try:
            async for message in child.messages():
                grandchild = message["grandchild"]
        except DeadlineExceeded as exc:
            return pgid, grandchild, exc.termination_confirmed
    return pgid, grandchild, False


def test_deadline_kills_child_and_grandchild_and_confirms() -> None:
    started = time.monotonic()
    pgid, grandchild, confirmed = asyncio.run(_run_stuck(1.0))
    assert confirmed is True
    assert grandchild > 0
    assert not alive(grandchild)
    assert not group_alive(pgid)
    assert pgid not in live_groups()
    assert time.monotonic() - started < 30  # it did not wait for the 600 s sleep


def test_child_in_its_own_process_group() -> None:
    async def main() -> None:
        async with run_child("tests.fakes.stuck_child", {}, time.monotonic() + 30) as child:
            assert child.process is not None
            assert os.getpgid(child.process.pid) == child.process.pid != os.getpgid(0)

    asyncio.run(main())


def test_grandchild_left_by_an_exited_child_is_killed_too() -> None:
    async def main() -> tuple[int, int]:
        async with run_child(
            "tests.fakes.stuck_child", {"exit_early": True}, time.monotonic() + 30
        ) as child:
            grandchild = 0
            async for message in child.messages():
                grandchild = message["grandchild"]
            await child.finish()
            assert child.process is not None
            return child.process.pid, grandchild

    pgid, grandchild = asyncio.run(main())
    assert not alive(grandchild)
    assert not group_alive(pgid)


def test_cancelling_the_caller_kills_the_child() -> None:
    async def main() -> int:
        pgids: list[int] = []

        async def body() -> None:
            async with run_child("tests.fakes.stuck_child", {}, time.monotonic() + 60) as child:
                assert child.process is not None
                pgids.append(child.process.pid)
                async for _ in child.messages():
                    pass

        task = asyncio.create_task(body())
        while not pgids:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return pgids[0]

    pgid = asyncio.run(main())
    assert not group_alive(pgid)


def test_kill_all_leaves_nothing_behind() -> None:
    async def main() -> None:
        await asyncio.sleep(0)
        kill_all()

    asyncio.run(main())
    assert live_groups() == frozenset()
