"""One leader for the batch loop: the Redis lock, and a real failover between two
``docbatch worker`` processes where the leader is killed with SIGKILL mid-batch."""

from __future__ import annotations

import signal
from collections import Counter
from pathlib import Path

import pytest
import redis

from docbatch_gui.coordination.leader import LEADER_KEY, RedisLeaderLock, leader_key
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.storage.backends import store_identity
from tests.conftest import SAMPLES
from tests.fakes.anthropic_server import FakeAnthropic
from tests.helpers import cli, wait_for
from tests.integration.test_batch_crash import (
    FILES,
    all_finished,
    jobs,
    stored_states,
    submitted_ids,
    worker,
)


def test_only_one_holder_and_takeover_after_the_ttl(redis_url: str) -> None:
    first, second = RedisLeaderLock(redis_url, ttl=1), RedisLeaderLock(redis_url, ttl=1)
    assert first.acquire() and first.held
    assert not second.acquire()
    first._stop.set()  # renewals stop, as when the leader dies
    client = redis.Redis.from_url(redis_url)
    client.pexpire(LEADER_KEY, 1)  # let the TTL run out without waiting for it
    for _ in range(100):
        if second.acquire():
            break
        client.ping()
    assert second.held
    first.release()  # a late release by the old leader must not free the new one's lock
    assert client.get(LEADER_KEY).decode() == second.token
    second.release()
    assert client.get(LEADER_KEY) is None


@pytest.mark.slow
def test_leader_killed_mid_batch_follower_takes_over_without_double_submission(
    tmp_path: Path, fake_anthropic: FakeAnthropic, redis_url: str
) -> None:
    fake_anthropic.batch_polls_needed = 2
    data = tmp_path / "data"
    env = {
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.url,
        "POLL_INTERVAL": "0.1",
        "REDIS_URL": redis_url,
        # renewed every third of it: a loaded machine may delay a renewal by a second
        # or two (the leader then stops leading and never reaches polling); a kill is
        # taken over once it runs out
        "LEADER_TTL": "6",
    }
    queued = cli(data, "process", *(str(SAMPLES / f) for f in FILES), "--mode", "batch", env=env)
    assert queued.returncode == 0, queued.stderr
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    key = leader_key(store_identity(load_settings(data_dir=data)))

    leader = worker(data, {**env, "DOCBATCH_CRASH_AT": "during_polling"})

    def leader_holds_the_lock() -> bool:  # before the follower starts
        assert leader.poll() is None, leader.communicate()
        return f":{leader.pid}:" in (client.get(key) or "")

    wait_for(leader_holds_the_lock, 30, "the leader to take the lock")
    follower = worker(data, env)
    try:
        leader.communicate(timeout=600)  # a hang guard: its crash point ends it
        assert leader.returncode == -signal.SIGKILL, "the leader never reached polling"
        assert follower.poll() is None
        wait_for(
            lambda: all_finished(data),
            120,
            lambda: f"every job to finish: {stored_states(data)}",
            interval=0.2,
        )
        assert f":{follower.pid}:" in (client.get(key) or "")
    finally:
        follower.send_signal(signal.SIGTERM)
        follower.communicate(timeout=240)  # a hang guard: SIGTERM ends it
    states = {j["file"]: j["state"] for j in jobs(data, env)}
    # the scan's table lines are not in the fake's answer to OCR text (lines_missing)
    assert states.pop("scan_two_pages.tiff") == "needs_review", states
    assert set(states.values()) == {"done"}, states
    ids = submitted_ids(fake_anthropic)
    assert len(ids) == 3 and sorted(ids) == sorted(set(ids)), Counter(ids).most_common(3)
