"""The "job finished" event: a job reached done or needs review (by the engine, or by
a person confirming its last document), and whoever acts on finished jobs hears it.

Plain Python, no Qt: a subscriber is a function of the engine context, the job and
its documents, called once per finished job, in the process that finished it. The
webhook subscribes here (``outbound.webhook.announce``); an export or a counterparty
hook subscribes the same way. A subscriber that fails is logged and never fails the
job: the job is finished whatever its listeners do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from docbatch_gui.domain.models import Document, Job
from docbatch_gui.domain.states import JobState
from docbatch_gui.engine.context import EngineContext
from docbatch_gui.outbound.webhook import announce

log = logging.getLogger(__name__)

FINISHED_STATES = frozenset({JobState.DONE, JobState.NEEDS_REVIEW})

Subscriber = Callable[[EngineContext, Job, Sequence[Document]], object]


class JobFinished:
    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Hear every finished job from now on; returns the call that stops it."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def publish(self, ctx: EngineContext, job: Job) -> Job:
        """Tell every subscriber, when ``job`` is in a finished state; returns it."""
        if job.state not in FINISHED_STATES or not self._subscribers:
            return job
        documents = ctx.store.list_documents(job.id)
        for subscriber in list(self._subscribers):
            try:
                subscriber(ctx, job, documents)
            except Exception:  # a listener's failure is its own, never the job's
                log.error("a job-finished subscriber failed", exc_info=True)
        return job


def webhook(ctx: EngineContext, job: Job, documents: Sequence[Document]) -> None:
    announce(ctx.settings, job, documents)


job_finished = JobFinished()
job_finished.subscribe(webhook)
