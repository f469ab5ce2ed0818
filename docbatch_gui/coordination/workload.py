"""The workload manager: how busy the team's machines are, in cost units.

Each heavy task registers under ``workload:task:{type}:{id}`` for as long as it runs
(``track_task``). The key has a 70-minute TTL, so a task whose worker was killed
stops counting on its own instead of throttling imports forever. Imports from
Yandex.Disk size their download threads from what is left of the capacity.

With ``REDIS_URL`` the accounting is shared by every machine; without it (the
embedded default) the same accounting is kept in this process. When Redis cannot
be reached, imports use fixed defaults (10 PDF, 2 TIFF threads) and the
problem is logged once, not on every call: a busy-ness estimate must never stop
work.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from docbatch_gui.domain.errors import DocBatchError, ErrorKind, ExitCode
from docbatch_gui.extras import require

if TYPE_CHECKING:
    from redis.lock import Lock

log = logging.getLogger(__name__)

KEY_PREFIX = "workload:task:"
EXCLUSIVE_PREFIX = "workload:exclusive:"
TTL_SECONDS = 70 * 60
CAPACITY = 12
COSTS: dict[str, int] = {"job_processing": 2, "registry_search": 4, "registry_export": 3}
#: task types of which only one may run at a time, team-wide
EXCLUSIVE = frozenset({"registry_search"})


@dataclass(frozen=True)
class ImportThreads:
    pdf: int
    tiff: int


#: what imports use when the shared accounting cannot be read
FALLBACK_THREADS = ImportThreads(pdf=10, tiff=2)


def threads_for(available: int) -> ImportThreads:
    """PDF threads 2..10 follow what is available; TIFF threads 1..3 get a quarter."""
    return ImportThreads(pdf=max(2, min(10, available)), tiff=max(1, min(3, available // 4)))


class WorkloadBusy(DocBatchError):
    """A task that must run alone (a registry search) while another one runs."""

    kind = ErrorKind.RETRYABLE
    exit_code = ExitCode.BUSY


def busy_message(task_type: str, holder: str) -> str:
    what = task_type.replace("_", " ")
    return (
        f"A {what} is already running ({holder}); only one runs at a time. "
        "Wait for it to finish, then start this one again."
    )


class Workload(Protocol):
    def track_task(self, task_type: str, task_id: str | int) -> Any: ...
    def holds(self, task_type: str, task_id: str | int) -> bool: ...
    def active(self) -> dict[str, int]: ...
    def available(self) -> int: ...
    def import_threads(self) -> ImportThreads: ...


def _cost(task_type: str) -> int:
    if task_type not in COSTS:
        raise ValueError(f"unknown task type {task_type!r}; known: {', '.join(sorted(COSTS))}")
    return COSTS[task_type]


class LocalWorkload:
    """The embedded default: the same accounting, for the tasks of this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks: dict[str, int] = {}

    @contextmanager
    def track_task(self, task_type: str, task_id: str | int) -> Iterator[None]:
        cost = _cost(task_type)
        key = f"{KEY_PREFIX}{task_type}:{task_id}"
        with self._lock:
            if task_type in EXCLUSIVE:
                running = [k for k in self._tasks if k.startswith(f"{KEY_PREFIX}{task_type}:")]
                if running and key not in running:
                    raise WorkloadBusy(busy_message(task_type, running[0].rsplit(":", 1)[1]))
            self._tasks[key] = cost
        try:
            yield
        finally:
            with self._lock:
                self._tasks.pop(key, None)

    def holds(self, task_type: str, task_id: str | int) -> bool:
        with self._lock:
            return f"{KEY_PREFIX}{task_type}:{task_id}" in self._tasks

    def active(self) -> dict[str, int]:
        with self._lock:
            return dict(self._tasks)

    def available(self) -> int:
        return CAPACITY - sum(self.active().values())

    def import_threads(self) -> ImportThreads:
        return threads_for(self.available())


class RedisWorkload:
    """Shared accounting in Redis: one key per running task, with a TTL."""

    def __init__(self, url: str, *, ttl: int = TTL_SECONDS, timeout: float = 2.0) -> None:
        require("team", "redis", "REDIS_URL (the shared workload manager)")
        # deferred: redis (team extra), 0.29 s to import
        import redis

        self.url = url
        self.ttl = ttl
        self.redis = redis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout, decode_responses=True
        )
        self._warned = False
        self._fallback = LocalWorkload()

    def _unreachable(self, exc: Exception) -> None:
        if not self._warned:
            self._warned = True
            log.warning(
                "Redis at %s is unreachable (%s): the workload is not shared; imports use %s PDF "
                "and %s TIFF threads",
                self.url.split("@")[-1],
                exc,
                FALLBACK_THREADS.pdf,
                FALLBACK_THREADS.tiff,
            )

    @contextmanager
    def track_task(self, task_type: str, task_id: str | int) -> Iterator[None]:
        # deferred: redis (team extra), 0.29 s to import
        import redis
        from redis.exceptions import LockError

        cost = _cost(task_type)
        key = f"{KEY_PREFIX}{task_type}:{task_id}"
        owner = f"{task_id}@{socket.gethostname()}:{os.getpid()}"
        value = json.dumps({"cost": cost, "owner": owner, "started": time.time()})
        slot: Lock | None = None
        try:
            if task_type in EXCLUSIVE:
                slot = self._take(f"{EXCLUSIVE_PREFIX}{task_type}", str(task_id))
            self.redis.set(key, value, ex=self.ttl)
        except redis.RedisError as exc:
            self._unreachable(exc)
            with self._fallback.track_task(task_type, task_id):
                yield
            return
        try:
            yield
        finally:
            try:
                self.redis.delete(key)
                if slot is not None:
                    with suppress(LockError):  # expired, or taken since: not ours to free
                        slot.release()
            except redis.RedisError as exc:  # the TTL removes it later
                self._unreachable(exc)

    def holds(self, task_type: str, task_id: str | int) -> bool:
        """Whether a live task holds this slot (its key has not expired). Unreachable
        Redis answers yes: what cannot be checked is not taken away from anyone."""
        # deferred: redis (team extra), 0.29 s to import
        import redis

        try:
            return bool(self.redis.exists(f"{KEY_PREFIX}{task_type}:{task_id}"))
        except redis.RedisError as exc:
            self._unreachable(exc)
            return True

    def _take(self, key: str, task_id: str) -> Lock:
        """The exclusive slot, a redis-py ``Lock`` whose token is the task id, so the
        holder's id is what a refused task reports. A slot this same task already
        holds is taken over with a fresh TTL: a re-run after its worker died must not
        be refused by its own leftover."""
        slot = self.redis.lock(key, timeout=self.ttl, blocking=False, thread_local=False)
        if slot.acquire(token=task_id):
            return slot
        # decode_responses=True makes it a str; redis's annotations cannot know
        holder = cast("str | None", self.redis.get(key))
        if holder != task_id:
            task_type = key.removeprefix(EXCLUSIVE_PREFIX)
            raise WorkloadBusy(busy_message(task_type, f"id {holder or 'another task'}"))
        slot.local.token = self.redis.get_encoder().encode(task_id)  # adopt the leftover
        slot.reacquire()  # with a check of the token, in one script
        return slot

    def active(self) -> dict[str, int]:
        """Running tasks and their cost; raises ``redis.RedisError`` when unreachable."""
        found: dict[str, int] = {}
        for key in self.redis.scan_iter(match=f"{KEY_PREFIX}*", count=500):
            task_type = key[len(KEY_PREFIX) :].split(":", 1)[0]
            found[key] = COSTS.get(task_type, 0)
        return found

    def available(self) -> int:
        return CAPACITY - sum(self.active().values())

    def import_threads(self) -> ImportThreads:
        # deferred: redis (team extra), 0.29 s to import
        import redis

        try:
            return threads_for(self.available())
        except redis.RedisError as exc:
            self._unreachable(exc)
            return FALLBACK_THREADS


_shared: dict[str, Workload] = {}
_shared_lock = threading.Lock()


def workload_for(redis_url: str | None, *, ttl: int = TTL_SECONDS) -> Workload:
    """One manager per process and URL, so "logged once" holds for the process."""
    key = f"{redis_url or ''}|{ttl}"
    with _shared_lock:
        if key not in _shared:
            _shared[key] = RedisWorkload(redis_url, ttl=ttl) if redis_url else LocalWorkload()
        return _shared[key]
