"""Facade parts that read like views of their own: batches and their costs, and
remote sources. Mixins of :class:`docbatch_gui.app.facade.DocBatchApp`, kept apart so the
facade stays readable; they use its store, settings and intake.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from docbatch_gui.app.batch_stats import (
    CANCELABLE,
    OPEN_STATUSES,
    BatchRow,
    MonthSummary,
    batch_row,
    month_summary,
)
from docbatch_gui.domain.errors import InvalidTransition, NotFound
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import BatchRecord, Job
from docbatch_gui.domain.progress import CancelToken, ProgressSink
from docbatch_gui.domain.states import FINAL_STATES
from docbatch_gui.engine.intake import IntakeReport
from docbatch_gui.llm.catalogue import Usage, load_catalogue
from docbatch_gui.llm.metrics import SyncMetrics, SyncSnapshot
from docbatch_gui.settings.secrets import keyring_secret

if TYPE_CHECKING:
    from docbatch_gui.coordination.workload import Workload
    from docbatch_gui.settings.model import Settings
    from docbatch_gui.storage.store import Store

log = logging.getLogger(__name__)


class BatchViews:
    sync_metrics: SyncMetrics

    if TYPE_CHECKING:  # what the class this is mixed into provides

        @property
        def store(self) -> Store: ...  # DocBatchApp opens it on first use (a cached_property)
        def cancel(self, job_id: int) -> Job: ...

    def batches(self) -> list[BatchRecord]:
        return self.store.list_batches()

    def batches_by_job(self) -> dict[int, list[BatchRecord]]:
        found: dict[int, list[BatchRecord]] = {}
        for batch in self.store.list_batches():
            for job_id in batch.job_ids:
                found.setdefault(job_id, []).append(batch)
        return found

    def tokens_by_job(self, job_ids: list[int]) -> dict[int, dict[str, int]]:
        """What each job's Claude requests used, thinking tokens apart (the cost's parts)."""
        found = {}
        for job_id in job_ids:
            records = self.store.list_requests(job_id)
            total = sum((Usage.of(r) for r in records), Usage())
            # the part of the input the seller's confirmed examples took (estimated)
            examples = sum(r.example_tokens for r in records)
            found[job_id] = {**total.as_fields(), "example_tokens": examples}
        return found

    def batch_rows(self) -> list[BatchRow]:
        """Every batch as the Batches view shows it, newest first. Only the jobs of
        open batches are read (to see a cancel before the engine acts on it)."""
        batches = self.store.list_batches()
        wanted = {j for b in batches if b.status in OPEN_STATUSES for j in b.job_ids}
        states = {j.id: j.state for j in self.store.list_jobs(ids=wanted)} if wanted else {}
        return sorted((batch_row(b, states) for b in batches), key=lambda r: -r.local_id)

    def month_summary(self) -> MonthSummary:
        return month_summary(self.store.list_jobs(), load_catalogue().batch_discount)

    def sync_snapshot(self) -> SyncSnapshot:
        return self.sync_metrics.snapshot()

    def cancel_batch(self, local_id: int) -> list[Job]:
        """Cancel a batch the way the engine knows: cancel every unfinished job in
        it. On its next poll the engine cancels the batch at the API once all of its
        jobs are canceled; results that still arrive are discarded for canceled jobs.
        Returns the jobs canceled here (already finished ones are left as they are).
        """
        batch = next((b for b in self.store.list_batches() if b.id == local_id), None)
        if batch is None:
            raise NotFound("batch", local_id)
        if batch.status not in CANCELABLE:
            raise InvalidTransition.coded(
                "batch_not_cancelable",
                {"batch": batch.batch_id or local_id, "status": batch.status},
            )
        canceled = []
        for job in self.store.list_jobs(ids=batch.job_ids):
            if job.state in FINAL_STATES:
                continue
            try:
                canceled.append(self.cancel(job.id))
            except InvalidTransition:
                continue  # it finished meanwhile
        log.info("batch %s: %s job(s) canceled", batch.batch_id or local_id, len(canceled))
        return canceled


class RemoteSources:
    settings: Settings

    if TYPE_CHECKING:  # what the class this is mixed into provides

        @property
        def workload(self) -> Workload: ...  # DocBatchApp makes it on first use (a cached_property)
        def resolve_mode(self, requested: str | None) -> str: ...
        def add(self, paths: list[Path], *, mode: str | None, force: bool) -> IntakeReport: ...

    def import_yadisk(
        self,
        source: str,
        *,
        token: str | None = None,
        mode: str | None = None,
        force: bool = False,
        progress: ProgressSink | None = None,
        cancel: CancelToken | None = None,
    ) -> IntakeReport:
        """Queue every supported file of a Yandex.Disk public link (or, with an OAuth
        token, a folder path such as ``disk:/Scans``). Downloads run in parallel with
        the workload manager's thread counts; ``progress`` hears of each file (its name
        as ``what``) from download threads; canceling ``cancel`` stops it (``Canceled``)."""
        # deferred: httpx, 0.18 s to import
        from docbatch_gui.sources.yadisk import Limits, YandexDisk, download_all

        mode = self.resolve_mode(mode)
        if token is None and self.settings.yadisk_token is not None:
            token = self.settings.yadisk_token.get_secret_value()
        token = token or keyring_secret("YADISK_TOKEN")
        threads = self.workload.import_threads()
        limits = Limits(
            max_file_bytes=self.settings.max_file_mb * 2**20,
            max_files=self.settings.yadisk_max_files,
            max_depth=self.settings.yadisk_max_depth,
            deadline_s=self.settings.yadisk_timeout,
        )
        disk = YandexDisk(self.settings.yadisk_api_url, token, limits)
        # removed on every way out: done, canceled, timed out or failed
        with tempfile.TemporaryDirectory(prefix="docbatch-yadisk-") as folder:
            try:
                outcome = download_all(
                    disk,
                    source,
                    Path(folder),
                    pdf_threads=threads.pdf,
                    tiff_threads=threads.tiff,
                    progress=progress,
                    cancel=cancel,
                )
            finally:
                disk.close()
            intake = self.add(outcome.paths, mode=mode, force=force)
            intake.passed_over.extend((Path(n), Message.plain(why)) for n, why in outcome.skipped)
            return intake
