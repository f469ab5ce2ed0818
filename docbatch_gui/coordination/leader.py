"""One leader for the batch loop across machines: a Redis lock with a TTL, renewed.

Only the holder submits and polls batches. It renews the lock every third of the
TTL from a thread; if it dies (power cut, kill -9) the renewals stop and another
machine takes over once the TTL runs out. A holder that fails to renew (a network
split) knows it lost the lock and stops acting as leader at its next cycle; the
store's attempt fencing and the batch intents cover the moment in between.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import uuid
from types import TracebackType

log = logging.getLogger(__name__)

LEADER_KEY = "docbatch:leader:batch-loop"

# Renew or release only while the lock still carries our token.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisLeaderLock:
    """Same interface as ``WorkerLock``: ``acquire`` (non-blocking), ``release``, ``held``."""

    def __init__(self, url: str, *, ttl: float = 30.0, key: str = LEADER_KEY) -> None:
        import redis

        self.key = key
        self.ttl_ms = int(ttl * 1000)
        self.redis = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=2, decode_responses=True
        )
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._held = threading.Event()
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def acquire(self) -> bool:
        import redis

        if self._held.is_set():
            return True
        try:
            won = bool(self.redis.set(self.key, self.token, nx=True, px=self.ttl_ms))
        except redis.RedisError as exc:
            log.warning("leader lock: Redis unreachable (%s); not leading", exc)
            return False
        if won:
            log.info("leader lock taken by %s", self.token)
            self._held.set()
            self._stop.clear()
            self._renewer = threading.Thread(target=self._renew, name="leader-renew", daemon=True)
            self._renewer.start()
        return won

    def _renew(self) -> None:
        import redis

        while not self._stop.wait(self.ttl_ms / 3000):
            try:
                kept = self.redis.eval(_RENEW, 1, self.key, self.token, self.ttl_ms)
            except redis.RedisError as exc:
                log.warning("leader lock: renewal failed (%s)", exc)
                kept = 0
            if not kept:
                log.warning("leader lock lost by %s; another machine may lead now", self.token)
                self._held.clear()
                return

    def release(self) -> None:
        import redis

        self._stop.set()
        if self._renewer is not None:
            self._renewer.join(timeout=5)
            self._renewer = None
        if self._held.is_set():
            self._held.clear()
            with contextlib.suppress(redis.RedisError):  # else the TTL frees it
                self.redis.eval(_RELEASE, 1, self.key, self.token)

    @property
    def held(self) -> bool:
        return self._held.is_set()

    def __enter__(self) -> RedisLeaderLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
