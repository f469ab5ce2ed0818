"""Isolation: a stuck child and everything it spawned die at the deadline; healthy
children are reused; nothing is left behind."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import psutil
import pytest

from docbatch_gui.pipeline.isolate import (
    ChildCrashed,
    ChildPool,
    DeadlineExceeded,
    group_alive,
    kill_all,
    live_groups,
)

REPO = Path(__file__).resolve().parents[2]
FAKE = "tests.fakes.stuck_child"
pytestmark = pytest.mark.slow  # every test starts the fake child


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    except psutil.NoSuchProcess:
        return False


@pytest.fixture(autouse=True)
def _repo_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


async def collect(
    pool: ChildPool, task: dict[str, object], seconds: float
) -> list[dict[str, object]]:
    async with pool.lease() as child:
        return [m async for m in child.run(task, time.monotonic() + seconds)]


def test_deadline_kills_child_and_grandchild_and_confirms() -> None:
    async def main() -> tuple[int, int, bool]:
        async with ChildPool(FAKE, 1) as pool, pool.lease() as child:
            grandchild = 0
            try:
                async for message in child.run({"do": "hang"}, time.monotonic() + 1.0):
                    grandchild = int(message["grandchild"])  # type: ignore[call-overload]
            except DeadlineExceeded as exc:
                return child.pid, grandchild, exc.termination_confirmed
        raise AssertionError("no deadline")

    started = time.monotonic()
    pgid, grandchild, confirmed = asyncio.run(main())
    assert confirmed is True
    assert grandchild > 0 and not alive(grandchild)
    assert not group_alive(pgid)
    assert pgid not in live_groups()
    # it did not wait for the 600 s sleep (a bound no loaded machine reaches: about 2 s)
    assert time.monotonic() - started < 300


def test_healthy_child_is_reused_and_runs_in_its_own_group() -> None:
    async def main() -> list[int]:
        async with ChildPool(FAKE, 1) as pool:
            pids = []
            for _ in range(3):
                (done,) = await collect(pool, {"do": "echo"}, 30)
                pids.append(int(done["pid"]))  # type: ignore[call-overload]
            async with pool.lease() as child:
                if sys.platform != "win32":  # a process group of its own; Windows: a job
                    assert os.getpgid(child.pid) == child.pid != os.getpgid(0)
            return pids

    pids = asyncio.run(main())
    assert len(set(pids)) == 1
    assert not alive(pids[0])  # closing the pool ended it


def test_a_killed_child_is_replaced_for_the_next_task() -> None:
    async def main() -> tuple[int, int]:
        async with ChildPool(FAKE, 1) as pool:
            (first,) = await collect(pool, {"do": "echo"}, 30)
            with pytest.raises(DeadlineExceeded):
                await collect(pool, {"do": "hang"}, 0.5)
            (second,) = await collect(pool, {"do": "echo"}, 30)
            return int(first["pid"]), int(second["pid"])  # type: ignore[call-overload]

    first, second = asyncio.run(main())
    assert first != second


def test_grandchild_left_by_an_exited_child_is_killed_too() -> None:
    async def main() -> tuple[int, int]:
        async with ChildPool(FAKE, 1) as pool, pool.lease() as child:
            grandchild = 0
            with pytest.raises(ChildCrashed):
                async for message in child.run({"do": "exit"}, time.monotonic() + 30):
                    grandchild = int(message["grandchild"])  # type: ignore[call-overload]
            return child.pid, grandchild

    pgid, grandchild = asyncio.run(main())
    assert not alive(grandchild)
    assert not group_alive(pgid)


def test_crash_reports_the_last_stderr_line() -> None:
    async def main() -> str:
        async with ChildPool(FAKE, 1) as pool:
            with pytest.raises(ChildCrashed) as info:
                await collect(pool, {"do": "crash"}, 30)
            return str(info.value)

    assert "segmentation fault" in asyncio.run(main())


def test_cancelling_the_caller_kills_the_child() -> None:
    async def main() -> int:
        pgids: list[int] = []
        pool = ChildPool(FAKE, 1)

        async def body() -> None:
            async with pool.lease() as child:
                pgids.append(child.pid)
                async for _ in child.run({"do": "hang"}, time.monotonic() + 60):
                    pass

        task = asyncio.create_task(body())
        while not pgids:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await pool.close()
        return pgids[0]

    assert not group_alive(asyncio.run(main()))


def test_kill_all_leaves_nothing_behind() -> None:
    async def main() -> int:
        pool = ChildPool(FAKE, 2)
        await pool.warm_up()
        pids = [c.pid for c in pool._idle]
        kill_all()
        return pids[0]

    assert not group_alive(asyncio.run(main()))
    assert live_groups() == frozenset()
