"""The workload manager on a real redis-server, and the in-process default."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import redis

from docbatch_gui.coordination.workload import (
    CAPACITY,
    FALLBACK_THREADS,
    ImportThreads,
    LocalWorkload,
    RedisWorkload,
    Workload,
    WorkloadBusy,
    threads_for,
    workload_for,
)
from tests.peers import free_port


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.slow), "local"])  # redis-server
def workload(request: pytest.FixtureRequest) -> Workload:
    if request.param == "local":
        return LocalWorkload()
    return RedisWorkload(request.getfixturevalue("redis_url"))


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url, decode_responses=True)
    yield connection
    connection.close()


def test_threads_follow_the_available_capacity() -> None:
    assert threads_for(12) == ImportThreads(10, 3)
    assert threads_for(8) == ImportThreads(8, 2)
    assert threads_for(5) == ImportThreads(5, 1)
    assert threads_for(1) == ImportThreads(2, 1)
    assert threads_for(-3) == ImportThreads(2, 1)


def test_costs_add_up_and_are_released(workload: Workload) -> None:
    assert workload.available() == CAPACITY
    assert workload.import_threads() == ImportThreads(10, 3)
    with workload.track_task("job_processing", 1), workload.track_task("job_processing", 2):
        assert workload.available() == 8
        assert workload.import_threads() == ImportThreads(8, 2)
        with (
            workload.track_task("registry_search", "r1"),
            workload.track_task("registry_export", "r2"),
        ):
            assert workload.available() == 1
            assert workload.import_threads() == ImportThreads(2, 1)
        assert workload.available() == 8
    assert workload.available() == CAPACITY
    assert workload.active() == {}


def test_a_failing_task_releases_its_slot(workload: Workload) -> None:
    with pytest.raises(ZeroDivisionError), workload.track_task("registry_export", 7):
        assert workload.available() == CAPACITY - 3
        _ = 1 / 0
    assert workload.active() == {}


def test_a_second_registry_search_is_refused_with_a_message(workload: Workload) -> None:
    with workload.track_task("registry_search", "first"):
        refused = pytest.raises(WorkloadBusy, match="registry search is already running")
        with refused, workload.track_task("registry_search", "second"):
            pytest.fail("two searches ran at once")
        assert workload.available() == CAPACITY - 4  # the refused one never counted
    with workload.track_task("registry_search", "second"):
        pass


def test_unknown_task_type_is_an_error(workload: Workload) -> None:
    with pytest.raises(ValueError, match="unknown task type"), workload.track_task("nap", 1):
        pass


def test_redis_key_has_the_documented_name_and_a_70_minute_ttl(
    redis_url: str, client: redis.Redis
) -> None:
    workload = RedisWorkload(redis_url)
    with workload.track_task("job_processing", 42):
        assert client.exists("workload:task:job_processing:42")
        assert 70 * 60 - 5 <= client.ttl("workload:task:job_processing:42") <= 70 * 60
    assert not client.exists("workload:task:job_processing:42")


def test_two_machines_share_the_accounting(redis_url: str) -> None:
    here, there = RedisWorkload(redis_url), RedisWorkload(redis_url)
    with here.track_task("registry_search", "a"):
        assert there.available() == CAPACITY - 4
        with pytest.raises(WorkloadBusy), there.track_task("registry_search", "b"):
            pass


def test_a_rerun_takes_over_its_own_leftover_slot_and_frees_it(
    redis_url: str, client: redis.Redis
) -> None:
    """The worker of search "r7" died holding the slot: its re-run is not refused by
    it, gets a fresh TTL, and frees the slot when done; another search names r7."""
    dead = RedisWorkload(redis_url, ttl=600).track_task("registry_search", "r7")
    dead.__enter__()  # and never exit: the worker died
    client.expire("workload:exclusive:registry_search", 5)
    other = RedisWorkload(redis_url, ttl=600)
    with pytest.raises(WorkloadBusy, match="id r7"), other.track_task("registry_search", "r8"):
        pass
    with other.track_task("registry_search", "r7"):
        assert client.ttl("workload:exclusive:registry_search") > 500
    assert not client.exists("workload:exclusive:registry_search")


def test_a_dead_task_stops_counting_when_its_key_expires(
    redis_url: str, client: redis.Redis
) -> None:
    """A killed worker never runs its ``finally``; the TTL cleans up after it."""
    workload = RedisWorkload(redis_url, ttl=1)
    tracker = workload.track_task("registry_export", 9)
    tracker.__enter__()  # and never exit: the worker "died"
    assert workload.available() == CAPACITY - 3
    client.pexpire("workload:task:registry_export:9", 1)  # let time pass
    for _ in range(100):
        if workload.available() == CAPACITY:
            break
        client.ping()
    assert workload.available() == CAPACITY


def test_unreachable_redis_uses_defaults_and_logs_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    workload = RedisWorkload(f"redis://127.0.0.1:{free_port()}/0", timeout=0.5)
    with caplog.at_level(logging.WARNING, logger="docbatch_gui.coordination.workload"):
        assert workload.import_threads() == FALLBACK_THREADS
        assert workload.import_threads() == FALLBACK_THREADS
        with workload.track_task("job_processing", 1):  # work goes on, counted locally
            pass
    warnings = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(warnings) == 1


def test_one_manager_per_process_and_url(redis_url: str) -> None:
    assert workload_for(redis_url) is workload_for(redis_url)
    assert isinstance(workload_for(None), LocalWorkload)
