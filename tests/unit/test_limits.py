"""Result-building limits: observed by who is inside at once, never by timing.

Every body waits on an event the test controls, so the test decides when slots are
given back; ``settle`` only lets already-runnable tasks run, it measures nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docbatch_gui.engine.limits import MB, SIZE_CLASSES, ResultLimiter, size_class

LARGE, MEDIUM, SMALL = 60 * MB, 30 * MB, 5 * MB


async def settle() -> None:
    """Let every runnable task run until it blocks (a bounded number of loop turns)."""
    for _ in range(20):
        await asyncio.sleep(0)


@dataclass
class Observer:
    """Records, independently of the limiter, what is inside ``admit`` at once."""

    limiter: ResultLimiter
    inside: dict[str, int] = field(default_factory=dict)
    entered: list[str] = field(default_factory=list)
    peak: int = 0
    peak_per_class: dict[str, int] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)

    def enter(self, name: str, size: int) -> None:
        self.inside[name] = size
        self.entered.append(name)
        self.peak = max(self.peak, len(self.inside))
        per_class: dict[str, int] = {}
        for s in self.inside.values():
            per_class[size_class(s).name] = per_class.get(size_class(s).name, 0) + 1
        for cls, n in per_class.items():
            self.peak_per_class[cls] = max(self.peak_per_class.get(cls, 0), n)
        self.check()

    def check(self) -> None:
        lim, total = self.limiter, sum(self.inside.values())
        if len(self.inside) > lim.result_workers:
            self.violations.append(f"workers {len(self.inside)}")
        if total > lim.budget_bytes and len(self.inside) > 1:
            self.violations.append(f"bytes {total} with {len(self.inside)} inside")
        for cls in SIZE_CLASSES:
            n = sum(1 for s in self.inside.values() if size_class(s) is cls)
            if n > cls.capacity:
                self.violations.append(f"class {cls.name} {n}")
        # Grants are handed over before the task runs, so the limiter may count more.
        if lim.in_progress < len(self.inside) or lim.in_progress_bytes < total:
            self.violations.append(f"limiter counts less than is inside: {lim.snapshot()}")
        if lim.in_progress > lim.result_workers:
            self.violations.append(f"limiter workers {lim.in_progress}")
        if lim.in_progress_bytes > lim.budget_bytes and lim.in_progress > 1:
            self.violations.append(f"limiter bytes {lim.snapshot()}")

    def leave(self, name: str) -> None:
        del self.inside[name]

    def start(self, name: str, size: int, gate: asyncio.Event) -> asyncio.Task[None]:
        async def body() -> None:
            async with self.limiter.admit(size):
                self.enter(name, size)
                try:
                    await gate.wait()
                finally:
                    self.leave(name)

        return asyncio.create_task(body(), name=name)


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 10))


def assert_idle(limiter: ResultLimiter) -> None:
    snap = limiter.snapshot()
    assert {k: v for k, v in snap.items() if not k.startswith("peak")} == dict.fromkeys(
        (k for k in snap if not k.startswith("peak")), 0
    )


def test_size_classes_follow_the_thresholds() -> None:
    assert size_class(50 * MB + 1).name == "large"
    assert size_class(50 * MB).name == "medium"
    assert size_class(20 * MB).name == "medium"
    assert size_class(20 * MB - 1).name == "small"
    assert size_class(0).name == "small"
    assert [c.capacity for c in SIZE_CLASSES] == [1, 2, 4]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        ResultLimiter(0, 10)
    with pytest.raises(ValueError):
        ResultLimiter(1, 0)

    async def negative() -> None:
        async with ResultLimiter(1, 1).admit(-1):
            pass

    with pytest.raises(ValueError):
        asyncio.run(negative())


def test_never_more_than_result_workers_and_the_bound_is_reached() -> None:
    async def scenario() -> None:
        limiter, gate = ResultLimiter(result_workers=3, max_concurrent_mb=10_000), asyncio.Event()
        obs = Observer(limiter)
        tasks = [obs.start(f"f{i}", SMALL, gate) for i in range(10)]
        await settle()
        assert len(obs.inside) == 3 and limiter.waiting == 7
        gate.set()
        await asyncio.gather(*tasks)
        assert obs.peak == limiter.peak_in_progress == 3
        assert obs.violations == [] and len(obs.entered) == 10
        assert_idle(limiter)

    run(scenario)


def test_bytes_in_progress_stay_within_the_budget() -> None:
    async def scenario() -> None:
        limiter, gate = ResultLimiter(result_workers=10, max_concurrent_mb=50), asyncio.Event()
        obs = Observer(limiter)
        tasks = [obs.start(f"f{i}", 15 * MB, gate) for i in range(7)]
        await settle()
        assert len(obs.inside) == 3  # 45 MB; a fourth would make 60 MB
        gate.set()
        await asyncio.gather(*tasks)
        assert limiter.peak_bytes == 45 * MB and obs.violations == []
        assert_idle(limiter)

    run(scenario)


def test_an_oversized_file_is_admitted_when_idle_and_runs_alone() -> None:
    async def scenario() -> None:
        limiter = ResultLimiter(result_workers=4, max_concurrent_mb=10)
        async with limiter.admit(30 * MB):  # idle: admitted at once, no deadlock
            assert limiter.in_progress == 1

        obs = Observer(limiter)
        g_first, g_big, g_after = asyncio.Event(), asyncio.Event(), asyncio.Event()
        first = obs.start("first", 5 * MB, g_first)
        await settle()
        big = obs.start("big", 30 * MB, g_big)
        await settle()
        after = [obs.start(f"after{i}", 0 if i == 0 else MB, g_after) for i in range(3)]
        await settle()
        assert list(obs.inside) == ["first"] and limiter.waiting == 4
        g_first.set()
        await first
        await settle()
        assert list(obs.inside) == ["big"]  # alone, even zero-byte files wait
        g_big.set()
        await big
        g_after.set()
        await asyncio.gather(*after)
        assert obs.entered[:2] == ["first", "big"] and obs.violations == []
        assert_idle(limiter)

    run(scenario)


def test_a_waiting_big_file_is_not_starved_by_later_small_ones() -> None:
    async def scenario() -> None:
        limiter = ResultLimiter(result_workers=10, max_concurrent_mb=100)
        obs = Observer(limiter)
        gates = {name: asyncio.Event() for name in ("a", "big", "c", "d")}
        a = obs.start("a", 10 * MB, gates["a"])
        await settle()
        big = obs.start("big", 95 * MB, gates["big"])
        await settle()
        later = [obs.start(n, 10 * MB, gates[n]) for n in ("c", "d")]
        await settle()
        # c and d would fit next to a (30 MB of 100) but must queue behind big.
        assert list(obs.inside) == ["a"] and limiter.waiting == 3
        gates["a"].set()
        await a
        await settle()
        assert list(obs.inside) == ["big"]
        gates["big"].set()
        await big
        await settle()
        assert sorted(obs.inside) == ["c", "d"]
        gates["c"].set(), gates["d"].set()
        await asyncio.gather(*later)
        assert obs.entered == ["a", "big", "c", "d"] and obs.violations == []

    run(scenario)


@pytest.mark.parametrize(("size", "capacity"), [(LARGE, 1), (MEDIUM, 2), (SMALL, 4)])
def test_each_size_class_has_its_own_capacity(size: int, capacity: int) -> None:
    async def scenario() -> None:
        limiter, gate = ResultLimiter(64, 1_000_000), asyncio.Event()
        obs = Observer(limiter)
        tasks = [obs.start(f"f{i}", size, gate) for i in range(9)]
        await settle()
        assert len(obs.inside) == capacity
        gate.set()
        await asyncio.gather(*tasks)
        assert obs.peak == capacity and obs.violations == [] and len(obs.entered) == 9

    run(scenario)


def test_mixed_classes_run_side_by_side() -> None:
    async def scenario() -> None:
        limiter, gate = ResultLimiter(64, 1_000_000), asyncio.Event()
        obs = Observer(limiter)
        # A queue headed by large files blocked on their class must not hold back the others.
        sizes = [LARGE] * 3 + [MEDIUM] * 3 + [SMALL] * 6
        tasks = [obs.start(f"f{i}", s, gate) for i, s in enumerate(sizes)]
        await settle()
        snap = limiter.snapshot()
        assert (snap["in_progress_large"], snap["in_progress_medium"]) == (1, 2)
        assert snap["in_progress_small"] == 4 and snap["in_progress"] == 7
        gate.set()
        await asyncio.gather(*tasks)
        assert obs.peak_per_class == {"large": 1, "medium": 2, "small": 4}
        assert obs.violations == [] and len(obs.entered) == len(sizes)

    run(scenario)


def test_cancellation_while_waiting_releases_everything() -> None:
    async def scenario() -> None:
        limiter = ResultLimiter(result_workers=10, max_concurrent_mb=100)
        obs = Observer(limiter)
        g_a, g_rest = asyncio.Event(), asyncio.Event()
        a = obs.start("a", 10 * MB, g_a)
        await settle()
        big = obs.start("big", 95 * MB, g_rest)
        await settle()
        small = obs.start("small", 10 * MB, g_rest)
        await settle()
        assert list(obs.inside) == ["a"] and limiter.waiting == 2
        big.cancel()
        await asyncio.gather(big, return_exceptions=True)
        await settle()
        assert sorted(obs.inside) == ["a", "small"]  # no longer queued behind big
        assert limiter.waiting == 0
        g_a.set(), g_rest.set()
        await asyncio.gather(a, small)
        assert_idle(limiter)
        async with limiter.admit(100 * MB):
            assert limiter.in_progress_bytes == 100 * MB
        assert obs.violations == []

    run(scenario)


def test_cancellation_while_holding_releases_everything() -> None:
    async def scenario() -> None:
        limiter = ResultLimiter(result_workers=1, max_concurrent_mb=100)
        obs = Observer(limiter)
        never = asyncio.Event()
        holder = obs.start("holder", LARGE, never)
        await settle()
        waiter = obs.start("waiter", LARGE, never)
        await settle()
        assert list(obs.inside) == ["holder"] and limiter.waiting == 1
        holder.cancel()
        await asyncio.gather(holder, return_exceptions=True)
        await settle()
        assert list(obs.inside) == ["waiter"]
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        assert_idle(limiter)
        async with limiter.admit(LARGE):
            assert limiter.in_progress == 1
        assert_idle(limiter)

    run(scenario)


def test_cancellation_after_the_grant_but_before_resuming_releases_it() -> None:
    async def scenario() -> None:
        limiter = ResultLimiter(result_workers=1, max_concurrent_mb=100)
        entered: list[str] = []

        async def wait_for_slot() -> None:
            async with limiter.admit(MB):
                entered.append("waiter")

        async with limiter.admit(MB):
            waiter = asyncio.create_task(wait_for_slot())
            await settle()
            assert limiter.waiting == 1
        # Leaving handed the slot to the waiter; cancel it before it can run.
        assert limiter.in_progress == 1 and limiter.waiting == 0
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        assert waiter.cancelled() and entered == []
        assert_idle(limiter)

    run(scenario)


@settings(max_examples=60, deadline=None)
@given(
    workers=st.integers(1, 6),
    budget_mb=st.integers(1, 150),
    jobs=st.lists(
        st.tuples(st.integers(0, 200 * MB), st.integers(0, 5), st.booleans()),
        min_size=1,
        max_size=25,
    ),
)
def test_random_workloads_finish_within_the_bounds(
    workers: int, budget_mb: int, jobs: list[tuple[int, int, bool]]
) -> None:
    """Any mix of sizes completes (no deadlock) and no observed state breaks a bound.

    Each job yields to the loop a few times while holding, some arrive late.
    """

    async def scenario() -> None:
        limiter = ResultLimiter(workers, budget_mb)
        obs = Observer(limiter)

        async def job(i: int, size: int, turns: int, late: bool) -> None:
            if late:
                await asyncio.sleep(0)
            async with limiter.admit(size):
                obs.enter(f"j{i}", size)
                for _ in range(turns):
                    await asyncio.sleep(0)
                    obs.check()
                obs.leave(f"j{i}")

        await asyncio.wait_for(asyncio.gather(*(job(i, *spec) for i, spec in enumerate(jobs))), 10)
        assert obs.violations == []
        assert len(obs.entered) == len(jobs)
        assert limiter.peak_in_progress <= workers
        assert_idle(limiter)

    asyncio.run(scenario())
