"""Two real Celery worker processes, a real redis-server, moto's S3 and one SQLite file.

A registry is imported on a worker, then 20 offline jobs and a search of that
registry are queued. The work must spread over both workers, the search must run on
a worker against documents in the shared store, the workload keys (the search's
included) must appear and go away, and the worker process killed
mid-task (kill -9 of its pool child) must not lose its job: acks_late with
reject_on_worker_lost puts the task back, attempt fencing lets the re-run finish
it, and every job ends ``done`` exactly once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from docbatch_gui.domain.models import Document, NewJob
from docbatch_gui.domain.registry import RegistryStatus
from docbatch_gui.domain.states import FINAL_STATES, JobState
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.storage.store import Store
from tests import builders
from tests.helpers import REPO, wait_for
from tests.integration.test_registry_cli import CONFIG, make_registry
from tests.peers import MotoS3

JOBS = 20
pytestmark = pytest.mark.slow


def add_documents(store: Store) -> None:
    """Documents the registry rows match, on a batch-mode job nobody dispatches (the
    pipeline that makes documents is tested elsewhere)."""
    job = store.create_job(NewJob("scan.pdf", "/in/scan.pdf", "c" * 64, 10, mode="batch"))
    specs = [("СЧ-1001", "2024-03-01", "1234.56"), ("СЧ-1002", "2024-03-02", "500.00")]
    docs = [
        Document(job.id, i, "invoice", i + 1, i + 1,
                 fields={"number": number, "date": date, "amount": amount})
        for i, (number, date, amount) in enumerate(specs)
    ]  # fmt: skip
    store.replace_documents(job.id, docs)


def workload_events(client: redis.Redis, pubsub: Any) -> list[tuple[str, str]]:
    """(key, event) pairs from Redis keyspace notifications: a slot held for a few
    milliseconds is seen as surely as a long one, which polling cannot promise."""
    events = []
    while message := pubsub.get_message(timeout=0.01):
        if message["type"] == "pmessage":
            events.append((message["channel"].split(":", 1)[1], message["data"]))
    return events


@pytest.fixture
def team_env(tmp_path: Path, redis_url: str, moto_s3: MotoS3) -> dict[str, str]:
    return {
        "DOCBATCH_DATA_DIR": str(tmp_path / "data"),
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "MINIO_ENDPOINT": moto_s3.endpoint,
        "MINIO_ACCESS_KEY": "test-key",
        "MINIO_SECRET_KEY": "test-secret",
        "MINIO_BUCKET": f"team-{uuid.uuid4().hex[:10]}",
        "EXECUTION": "celery",
        "SHARED_FOLDER": str(tmp_path),  # the registry workbook is written there
        "RENDER_WORKERS": "1",
        "OCR_ENGINE": "none",
        "WORKLOAD_TTL": "4",  # the killed task's key must expire within the test
        "DOCBATCH_CRASH_ONCE": "celery_mid_job",
        "DOCBATCH_CRASH_MARKER": str(tmp_path / "crashed"),
    }


@pytest.fixture
def workers(team_env: dict[str, str], tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    started = []
    for n in (1, 2):
        log = open(tmp_path / f"worker{n}.log", "w")  # noqa: SIM115 - closed with the process
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "docbatch_gui.cli",
                    "celery-worker",
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "WARNING",
                    "--name",
                    f"w{n}@%h",
                ],
                cwd=REPO,
                env={**os.environ, **team_env},
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    yield started
    for process in started:
        process.send_signal(signal.SIGTERM)
    for process in started:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_jobs_spread_over_two_workers_and_survive_a_killed_one(
    team_env: dict[str, str],
    workers: list[subprocess.Popen[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in team_env.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    from docbatch_gui.app.facade import DocBatchApp
    from docbatch_gui.distributed.celery_app import configure
    from docbatch_gui.distributed.dispatch import dispatch_queued
    from docbatch_gui.distributed.tasks import registry_import, registry_search

    celery = configure(settings)
    for _ in range(300):  # both workers up before anything is sent
        if len(celery.control.ping(timeout=0.5)) == 2:
            break
        assert all(w.poll() is None for w in workers), (tmp_path / "worker1.log").read_text()
    else:
        pytest.fail("the two Celery workers never answered")

    files = tmp_path / "in"
    files.mkdir()
    paths = [
        builders.text_pdf(
            files / f"inv{n}.pdf", text=f"Invoice No. {n}\nDate: 2024-03-15\nTotal: {n}.00 USD"
        )
        for n in range(JOBS)
    ]
    client = redis.Redis.from_url(settings.redis_url, decode_responses=True)
    client.config_set("notify-keyspace-events", "KA")  # set, del and expired events
    pubsub = client.pubsub()
    pubsub.psubscribe("__keyspace@*__:workload:task:*")
    docapp = DocBatchApp(settings)
    try:
        add_documents(docapp.store)
        book = make_registry(tmp_path / "реестр.xlsx")
        imported = registry_import.delay(str(book), CONFIG).get(timeout=120)
        reg_id = imported["registry_id"]
        assert (imported["kept"], imported["filtered"]) == (3, 1)
        # a foreign client on the broker asks a worker to write outside the shared folder
        outside = tmp_path.parent / f"owned-{uuid.uuid4().hex[:6]}.xlsx"
        refused = celery.send_task("docbatch.registry_export", args=[reg_id, str(outside)])
        with pytest.raises(Exception, match="outside SHARED_FOLDER"):
            refused.get(timeout=120)
        assert not outside.exists()

        report = docapp.add(paths, mode="offline")
        assert len({j.sha256 for j in report.jobs}) == JOBS
        assert docapp.blobs.exists(report.jobs[0].sha256)  # in the bucket, not a folder
        task_ids = dispatch_queued(docapp.store, settings, set())
        assert len(task_ids) == JOBS
        search = registry_search.delay(reg_id)

        store = docapp.store

        def processed() -> list[Any]:
            return [j for j in store.list_jobs() if j.mode == "offline"]

        events: list[tuple[str, str]] = []

        def settled() -> bool:
            events.extend(workload_events(client, pubsub))
            return (
                all(j.state in FINAL_STATES for j in processed())
                and search.ready()
                and not client.keys("workload:*")
            )

        wait_for(
            settled,
            180,
            lambda: (
                f"every job and the search to end, the workload keys to go: "
                f"{ {j.file_name: j.state for j in processed()} }, {client.keys('workload:*')}"
            ),
        )
        events += workload_events(client, pubsub)
        states = {j.file_name: j.state for j in processed()}
        assert set(states.values()) == {JobState.DONE}, states
        assert client.keys("workload:task:*") == []  # released, or expired after the kill
        seen_keys = {key for key, event in events if event == "set"}
        assert {k.rsplit(":", 1)[0] for k in seen_keys} >= {"workload:task:job_processing"}
        search_key = f"workload:task:registry_search:{reg_id}"
        search_events = [event for key, event in events if key == search_key]
        assert search_events[0] == "set" and search_events[-1] in ("del", "expired"), events

        assert Path(team_env["DOCBATCH_CRASH_MARKER"]).exists(), "no worker was killed"
        retried = [j for j in processed() if j.attempts == 2]
        assert len(retried) == 1  # the killed task's job ran again, once
        for job in processed():
            finals = [e for e in store.job_events(job.id) if e["to_state"] == "done"]
            assert len(finals) == 1, store.job_events(job.id)

        results = [celery.AsyncResult(t).get(timeout=60) for t in task_ids]
        assert {r["worker"].split("@")[0] for r in results} == {"w1", "w2"}

        searched = search.get(timeout=60)
        assert (searched["rows"], searched["matched"]) == (3, 2)  # row 4 has no document
        assert celery.AsyncResult(search.id).state == "SUCCESS"
        assert store.get_registry(reg_id).status is RegistryStatus.SEARCHED
        assert len(store.list_results(reg_id)) == 3
    finally:
        pubsub.close()
        docapp.close()
