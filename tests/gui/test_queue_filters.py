"""The queue's filters (state, error kind, file name) match what a reader of the
rows would: any character in a name is literal, and rows follow their jobs' changes."""

from __future__ import annotations

import itertools
from dataclasses import replace

from bench.gui_responsiveness import make_jobs
from docbatch_gui._qt.queue.jobs_model import JobFilterProxy, JobRole, JobTableModel
from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.states import JobState

NAMES = ["Счёт (1).PDF", "a+b[2].pdf", "tab\there.pdf", "plain.pdf", ".*.pdf", "a\\d.pdf"]


def jobs() -> list[Job]:
    states = [JobState.QUEUED, JobState.FAILED, JobState.DONE, JobState.TIMED_OUT]
    kinds = [None, ErrorKind.UNSUPPORTED, ErrorKind.RETRYABLE]
    made = make_jobs(len(NAMES) * len(states) * len(kinds))
    combos = itertools.product(NAMES, states, kinds)
    return [
        replace(job, file_name=name, state=state, error_kind=kind)
        for job, (name, state, kind) in zip(made, combos, strict=True)
    ]


def shown(proxy: JobFilterProxy) -> list[int]:
    return sorted(proxy.index(r, 0).data(JobRole).id for r in range(proxy.rowCount()))


def expected(rows: list[Job], states: set[str], kind: str, text: str) -> list[int]:
    return sorted(
        j.id
        for j in rows
        if (not states or j.state.value in states)
        and (not kind or (j.error_kind is not None and j.error_kind.value == kind))
        and text.strip().lower() in j.file_name.lower()
    )


def test_every_combination_of_filters_shows_the_matching_rows() -> None:
    rows = jobs()
    model = JobTableModel()
    proxy = JobFilterProxy()
    proxy.setSourceModel(model)
    model.load(rows)
    assert proxy.rowCount() == len(rows)
    for states, kind, text in itertools.product(
        [set(), {"failed"}, {"failed", "timed_out"}],
        ["", "unsupported"],
        ["", "(1).", "A+B[", "\t", ".*", "\\d", "СЧЁТ", " plain ", "nothing"],
    ):
        proxy.set_states(states)
        proxy.set_error_kind(kind)
        proxy.set_text(text)
        assert shown(proxy) == expected(rows, states, kind, text), (states, kind, text)
    proxy.set_states([])
    proxy.set_error_kind("")
    proxy.set_text("")
    assert proxy.rowCount() == len(rows)


def test_a_filtered_view_follows_its_jobs_changes() -> None:
    rows = jobs()
    model = JobTableModel()
    proxy = JobFilterProxy()
    proxy.setSourceModel(model)
    model.load(rows)
    proxy.set_states(["failed"])
    failed = [j for j in rows if j.state is JobState.FAILED]
    assert shown(proxy) == sorted(j.id for j in failed)
    queued = next(j for j in rows if j.state is JobState.QUEUED)
    model.apply([replace(failed[0], state=JobState.QUEUED), replace(queued, state=JobState.FAILED)])
    assert shown(proxy) == sorted([queued.id] + [j.id for j in failed[1:]])
