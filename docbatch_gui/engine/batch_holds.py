"""Batch mode when the Message Batches API cannot be reached: held, never sent blind.

When a create, list, retrieve or results call gets no answer (connection refused,
DNS, a cut), every batch job still at work, queued, planned or running, is held for
``claude_unreachable`` with the host (``engine.holds``): the queue says why and offers
*Retry now*, ``jobs --json`` gives ``held_by``, ``process --wait`` stops waiting.

Money: a create that got no answer may have reached the server. Its intent stays as
it was (no batch id), and while the hold lasts the engine creates nothing; a cycle
only asks a free question (a list of one batch). Once that is answered, or the
operator retries, the hold is lifted and the cycle starts from ``resolve_intents``,
which looks for the batch in the API's list before it ever creates it again.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from docbatch_gui.domain.errors import DocBatchError, InvalidTransition
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import BATCH_READY_STATES, JobState
from docbatch_gui.engine.holds import (
    claude_host,
    did_not_reach_claude,
    hold_unreachable_many,
    retry_unreachable,
    unreachable_jobs,
)
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store

if TYPE_CHECKING:
    from docbatch_gui.llm.batches import BatchClient

log = logging.getLogger(__name__)

BATCH = "batch"
#: the batch jobs a cut from the API stops: every one still at work
AT_WORK = (JobState.QUEUED, *BATCH_READY_STATES, JobState.SUBMITTED, JobState.PROCESSING)


def held_batch_jobs(store: Store) -> list[int]:
    """The batch jobs held because the API could not be reached."""
    _host, held = unreachable_jobs(store)
    if not held:
        return []
    return [j.id for j in store.list_jobs(ids=sorted(held), mode=BATCH)]


async def reachable_again(store: Store, client: BatchClient, emit: Callable[[Job], Job]) -> bool:
    """True when no batch job is held, or the API answers a free question now (then
    the hold is lifted: the cycle goes on and settles the intents first). False: the
    API is still out of reach and nothing is done this cycle."""
    held = held_batch_jobs(store)
    if not held:
        return True
    try:
        await client.probe()
    except DocBatchError as exc:
        if not did_not_reach_claude(exc.message):
            raise
        log.info("batch: the API still cannot be reached (%s); %s job(s) stay held", exc, len(held))
        return False
    lifted = retry_unreachable(store, held)
    log.warning("batch: the API answers again; %s held job(s) go on", len(lifted))
    for job in store.list_jobs(ids=lifted):
        emit(job)
    return True


def hold_batch_jobs(
    store: Store, settings: Settings, exc: DocBatchError, emit: Callable[[Job], Job]
) -> None:
    """The API did not answer: every batch job at work waits, held with the host. A job
    prepared for a batch never planned goes back to the queue (its pages kept); an
    intent stays as it is, to be looked for before it is created again."""
    host = claude_host(settings)
    jobs = store.list_jobs(states=AT_WORK, mode=BATCH)
    hold_unreachable_many(store, [j.id for j in jobs], host)  # first: who sees them, sees why
    for job in jobs:
        if job.state in BATCH_READY_STATES:
            with contextlib.suppress(InvalidTransition):
                job = store.transition(job.id, JobState.QUEUED, expected=job.state)
        emit(job)
    log.warning(
        "batch: the Message Batches API cannot be reached at %s (%s): %s job(s) held; "
        "nothing is created again until it answers",
        host,
        exc,
        len(jobs),
    )
