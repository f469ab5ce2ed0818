"""One leader for the batch loop across machines: a Redis lock with a TTL, renewed.

Only the holder submits and polls batches. It renews the lock every third of the
TTL from a thread; if it dies (power cut, kill -9) the renewals stop and another
machine takes over once the TTL runs out. A holder that fails to renew (a network
split) knows it lost the lock and stops acting as leader at its next cycle; the
store's attempt fencing and the batch intents cover the moment in between.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socket
import threading
import uuid

from docbatch_gui.coordination.lock import HeldLock
from docbatch_gui.extras import require

log = logging.getLogger(__name__)

LEADER_KEY = "docbatch:leader:batch-loop"


def leader_key(store_identity: str) -> str:
    """The lock of one data store: two workstations that share a Redis but keep their
    own SQLite queues each lead their own; machines on one MongoDB share one leader."""
    digest = hashlib.sha256(store_identity.encode()).hexdigest()[:16]
    return f"{LEADER_KEY}:{digest}"


class RedisLeaderLock(HeldLock):
    """Same interface as ``WorkerLock``: ``acquire`` (non-blocking), ``release``, ``held``.

    A redis-py ``Lock`` does the Redis side: set-if-absent with the TTL, and renewal
    and release only while the key still carries our token. The token names this
    process (``host:pid:…``) so an operator can see who leads.
    """

    def __init__(self, url: str, *, ttl: float = 30.0, key: str = LEADER_KEY) -> None:
        require("team", "redis", "REDIS_URL (the shared batch-loop leader lock)")
        # deferred: redis (team extra), 0.29 s to import
        import redis

        self.key = key
        self.ttl = ttl
        self.redis = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=2, decode_responses=True
        )
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # Not thread-local: the renewal thread must see the token acquire() stored.
        self._lock = self.redis.lock(key, timeout=ttl, blocking=False, thread_local=False)
        self._held = threading.Event()
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None
        #: why the last ``acquire`` could not ask Redis at all (None: Redis answered)
        self.unreachable: Exception | None = None

    def acquire(self) -> bool:
        # deferred: redis (team extra), 0.29 s to import
        import redis

        if self._held.is_set():
            return True
        try:
            won = self._lock.acquire(token=self.token)
        except redis.RedisError as exc:
            if self.unreachable is None:
                log.warning("leader lock: Redis unreachable (%s); not leading", exc)
            self.unreachable = exc
            return False
        self.unreachable = None
        if won:
            log.info("leader lock taken by %s", self.token)
            self._held.set()
            self._stop.clear()
            self._renewer = threading.Thread(target=self._renew, name="leader-renew", daemon=True)
            self._renewer.start()
        return won

    def _renew(self) -> None:
        """Reset the TTL every third of it; a failed renewal means another machine
        may lead already, so this one stops at once."""
        # deferred: redis (team extra), 0.29 s to import
        from redis.exceptions import LockError, RedisError

        while not self._stop.wait(self.ttl / 3):
            try:
                self._lock.reacquire()
            except (LockError, RedisError) as exc:
                log.warning(
                    "leader lock lost by %s (%s); another machine may lead now", self.token, exc
                )
                self._held.clear()
                return

    def release(self) -> None:
        # deferred: redis (team extra), 0.29 s to import
        from redis.exceptions import LockError, RedisError

        self._stop.set()
        if self._renewer is not None:
            self._renewer.join(timeout=5)
            self._renewer = None
        if self._held.is_set():
            self._held.clear()
            # Not ours any more (another leader took over): left alone. Unreachable:
            # the TTL frees it.
            with contextlib.suppress(LockError, RedisError):
                self._lock.release()

    @property
    def held(self) -> bool:
        return self._held.is_set()
