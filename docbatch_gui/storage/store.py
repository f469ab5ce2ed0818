"""The store protocol every backend implements.

State changes go through ``transition`` only. It checks the state contract against
the state *in the store* inside one transaction, and optionally the attempt number
as a fencing token, so a worker acting on a stale view (it came back after its
deadline, or after the job was retried) is refused instead of overwriting.

A job, document, registry, row or batch asked for by an id that does not exist raises
``NotFound`` on every backend, so a caller tells "no such thing" from a bug (a plain
``KeyError``) and the command line returns the same exit code whatever the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol, Unpack, runtime_checkable

from docbatch_gui.domain.counterparty import ConfirmedDocument, Counterparty
from docbatch_gui.domain.errors import InvalidTransition, NotFound
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import (
    BatchRecord,
    CapRefusal,
    Caps,
    Document,
    Job,
    NewJob,
    OcrRecord,
    Page,
    RequestRecord,
    Reservation,
)
from docbatch_gui.domain.registry import (
    REGISTRY_FIELDS,
    Assignment,
    FilteredRowRecord,
    Registry,
    RegistryRowRecord,
    RegistryStatus,
    SearchResult,
)
from docbatch_gui.domain.states import JobState
from docbatch_gui.settings.secrets import scrub_secrets
from docbatch_gui.storage.job_patch import JobPatch
from docbatch_gui.storage.row_json import EncodedRow


class RegistryStore(Protocol):
    """Registries, their rows, filtered samples, search results and the audit trail.

    Every method takes and returns plain domain records so that another backend
    (MongoDB) implements the same calls. Each write is one transaction; rows and
    results are written by the caller in chunks, so a failure loses one chunk at most.
    """

    def create_registry(
        self,
        name: str,
        source_file: str,
        config: dict[str, Any],
        *,
        staging: bool = False,
        task_owner: str | None = None,
    ) -> Registry:
        """A new registry in status ``importing``; with ``staging``, the hidden copy a
        re-import fills before ``swap_registry_data``."""

    def swap_registry_data(self, registry_id: int, staging_id: int, **fields: Any) -> Registry:
        """Atomically: the staging copy's rows replace the registry's (its results go),
        ``fields`` are set, the copy is removed. A kill leaves the old or the new."""

    def get_registry(self, registry_id: int) -> Registry:
        """Raises NotFound("no registry N") when it does not exist."""

    def list_registries(self, *, staging: bool = False) -> list[Registry]:
        """In id order; staging copies only with ``staging``."""

    def find_registry(self, source_file: str) -> Registry | None:
        """The newest registry imported from this file, for re-import."""

    def update_registry(self, registry_id: int, **fields: Any) -> Registry:
        """Set any of REGISTRY_FIELDS; ``updated_at`` follows."""

    def delete_registry(self, registry_id: int) -> None: ...

    def clear_registry_data(self, registry_id: int) -> None:
        """Drop rows, filtered samples and results before a (forced) re-import.

        The assignment audit trail stays: it records what people did.
        """

    def add_registry_rows(self, registry_id: int, rows: Sequence[RegistryRowRecord]) -> None: ...
    def add_encoded_registry_rows(self, registry_id: int, rows: Sequence[EncodedRow]) -> None:
        """``add_registry_rows`` of rows already encoded (``row_json``), as an import
        makes them: the same rows stored."""

    def list_registry_rows(
        self, registry_id: int, *, offset: int = 0, limit: int | None = None
    ) -> list[RegistryRowRecord]:
        """In row order."""

    def count_registry_rows(self, registry_id: int) -> int: ...
    def set_filtered_rows(self, registry_id: int, rows: Sequence[FilteredRowRecord]) -> None:
        """Replace the filtered-row samples."""

    def list_filtered_rows(self, registry_id: int) -> list[FilteredRowRecord]: ...

    def clear_results(self, registry_id: int, *, keep_manual: bool = True) -> None: ...
    def put_results(self, registry_id: int, results: Sequence[SearchResult]) -> None:
        """Insert or replace results, keyed by row."""

    def list_results(self, registry_id: int) -> list[SearchResult]:
        """In row order."""

    def count_results(self, registry_id: int) -> int: ...

    def assign(self, registry_id: int, row: int, document_id: int | None, who: str) -> SearchResult:
        """Set a row's document by hand (None unassigns) and write the audit record.

        Raises NotFound when the row does not exist in the registry.
        """

    def list_assignments(self, registry_id: int) -> list[Assignment]:
        """Oldest first."""


class CounterpartyStore(Protocol):
    """What confirmed documents taught about their sellers, kept per document and
    summed per seller INN on reading (``domain.counterparty``)."""

    def remember_confirmed(self, entry: ConfirmedDocument, *, keep: int) -> None:
        """Insert or replace the entry of its document; then only the ``keep`` newest
        entries of that INN keep their field values."""

    def counterparty(self, inn: str) -> Counterparty | None:
        """None when no confirmed document has this seller INN."""

    def list_counterparties(self) -> list[Counterparty]:
        """By name, then INN."""

    def forget_counterparty(self, inn: str) -> int:
        """Drop everything remembered of this INN; returns how many documents it had.
        Raises NotFound when nothing is remembered of it."""

    def forget_confirmed_document(self, document_id: int) -> str:
        """Drop what one confirmed document taught; returns its seller's INN. Raises
        NotFound when that document taught nothing."""


#: the largest id SQLite's INTEGER and MongoDB's int64 can hold
MAX_ID = 2**63 - 1


def stored_id(what: str, value: int) -> int:
    """``value`` when a store can hold it; a larger id (``retry 99999…``) names
    nothing, so it is "not found" like any id that does not exist, instead of the
    driver's OverflowError."""
    if not -MAX_ID - 1 <= value <= MAX_ID:
        raise NotFound(what, value)
    return value


@runtime_checkable
class Store(RegistryStore, CounterpartyStore, Protocol):
    """Jobs, pages, documents, events, small settings, and registries."""

    def close(self) -> None: ...

    # jobs
    def create_job(self, new: NewJob) -> Job: ...
    def get_job(self, job_id: int) -> Job: ...
    def list_jobs(
        self,
        states: Iterable[JobState] | None = None,
        ids: Iterable[int] | None = None,
        *,
        mode: str | None = None,
        limit: int | None = None,
    ) -> list[Job]:
        """Jobs in id order, filtered; ``limit`` keeps the first ones (the oldest)."""

    def job_revisions(self, ids: Iterable[int]) -> dict[int, int]:
        """Each stored job's revision among ``ids`` (a job no longer stored is left
        out): a number that grows at every write of the job, so that a run waiting for
        its jobs decodes again only those written since it last looked."""

    def find_original(self, sha256: str) -> Job | None:
        """The first job for this content that is not a duplicate and did not fail.

        A file that failed before is processed again when dropped again; one that
        succeeded or is in progress makes the new copy a duplicate.
        """

    def transition(
        self,
        job_id: int,
        to: JobState,
        *,
        expected: JobState | Iterable[JobState] | None = None,
        attempt: int | None = None,
        **fields: Unpack[JobPatch],
    ) -> Job:
        """Move a job, atomically, if the contract allows it from its stored state.

        ``expected`` narrows the states the caller believes the job is in;
        ``attempt`` must equal the stored attempt count when given. Either mismatch
        raises InvalidTransition and changes nothing.
        """

    def claim(self, job_id: int, to: JobState, *, deadline: Any = None) -> Job | None:
        """queued → ``to`` with attempts+1, or None if another worker got it first."""

    def update_job(
        self, job_id: int, *, attempt: int | None = None, **fields: Unpack[JobPatch]
    ) -> Job: ...
    def job_events(self, job_id: int) -> list[dict[str, Any]]: ...
    def delete_job(self, job_id: int) -> None: ...

    # pages
    def put_pages(self, pages: Sequence[Page]) -> None:
        """Insert or replace pages (keyed by job and page number) in one transaction."""

    def list_pages(self, job_id: int) -> list[Page]: ...
    def set_pages_deliverable(self, job_id: int, deliverable: bool) -> int: ...
    def delete_pages(self, job_id: int) -> None: ...

    # documents
    def replace_documents(self, job_id: int, documents: Sequence[Document]) -> list[Document]:
        """A job's documents, all at once; a document given with an ``id`` keeps it
        (a reprocess that found it again), one without gets a new one."""

    def update_document(self, document: Document) -> Document:
        """One document changed in place (a review edit): its id stays, so registry
        matches and links to it stay valid. NotFound when it is gone."""

    def list_documents(self, job_id: int | None = None) -> list[Document]: ...
    def documents_matching(self, key: str) -> list[Document]:
        """The documents of every job whose ``checks.duplicates.match_key`` is ``key``
        (never ""), read through an index: what a saved document is compared with to
        find a likely duplicate, whatever the size of the store. Ordered by id."""

    def archive_documents(self, job_id: int, documents: Sequence[Document], reason: str) -> None:
        """Keep documents a person corrected as they were, before they are replaced."""

    def document_history(self, job_id: int) -> list[dict[str, Any]]:
        """Archived documents: ``{"document_id", "at", "reason", "document"}``, oldest first."""

    # Claude requests: usage, cost and the validated answer of each group, so a retry
    # sends only the groups that failed and nothing is paid for twice
    # (saving a request whose cost grew also writes the growth to the spend ledger)
    def save_request(self, record: RequestRecord) -> None: ...
    def list_requests(self, job_id: int) -> list[RequestRecord]: ...

    # The spend ledger: every actual cost with the moment it was paid, kept when its
    # job is deleted, so a month's spend is the sum of its entries
    def record_spend(
        self, usd: float, *, at: datetime | None = None, job_id: int | None = None, ref: str = ""
    ) -> None: ...
    def spent_between(self, start: datetime, end: datetime | None = None) -> float:
        """USD of the entries paid at ``start`` or later and before ``end``."""

    # Message Batches (intent first, then the API's id)
    def create_batch(self, record: BatchRecord) -> BatchRecord: ...
    def update_batch(self, local_id: int, **fields: Any) -> BatchRecord: ...
    def list_batches(self, statuses: Iterable[str] | None = None) -> list[BatchRecord]: ...
    def open_intent(
        self,
        intent: BatchRecord,
        requests: Sequence[RequestRecord],
        estimates: Mapping[int, float | None],
        checkpoint: Callable[[str], None] = ...,
    ) -> BatchRecord:
        """Write a batch intent as one atomic step: the intent (status ``intent``), each
        of its jobs moved from ready to ``submitted`` (one already there stays) with its
        estimate, and ``requests`` saved ``pending`` in it. Raises ``RequestHeld``, with
        nothing written, when a job is in another open intent or a request waits in an
        open batch. ``checkpoint(name)`` is called between the writes (crash tests)."""

    def settle_intents(self) -> None:
        """Finish an intent a kill interrupted while it was being written (a backend
        without multi-document transactions writes it in steps); called by the queue's
        leader before it recovers jobs or resolves intents."""

    # Budget reservations: a paid request's high-end estimate, set aside atomically
    # (spent this month + reserved + it within the month cap; the run's paid + reserved
    # + it within the run cap) before it is sent, until its cost is in the ledger
    def reserve(
        self, reservation: Reservation, caps: Caps, *, forced: bool = False
    ) -> CapRefusal | None:
        """Write ``reservation`` (replacing one of the same key) unless it would cross
        a cap: then nothing is written and the refusal says which. ``forced``: the
        operator let this run go over budget; it is written whatever the caps say."""

    def release(self, key: str, actual_usd: float = 0.0) -> None:
        """Drop a reservation; its run is charged ``actual_usd`` (the spend ledger has
        the month's share already). Releasing twice is harmless."""

    def hand_over(self, key: str, new_key: str, owner: str) -> None:
        """Give a reservation a new key and owner (a created batch takes it over)."""

    def list_reservations(self) -> list[Reservation]: ...
    def refresh_reservations(self, owner: str) -> None: ...
    def drop_reservations(self, keys: Sequence[str]) -> None: ...
    def run_spent(self, run: str) -> float: ...

    # OCR cache: written page by page as results arrive
    def put_ocr(self, record: OcrRecord) -> None: ...
    def get_ocr(self, sha256: str, engine: str) -> dict[int, OcrRecord]: ...

    # small settings shared by the GUI, the CLI and workers (e.g. pause flags)
    def get_setting(self, key: str, default: Any = None) -> Any: ...
    def set_setting(self, key: str, value: Any) -> None: ...

    # the mailbox intake's ledger: each message taken once, across restarts
    def mail_taken(self, key: str) -> dict[str, Any] | None:
        """What was recorded when the message ``key`` was taken; None if it never was."""

    def remember_mail(self, key: str, body: dict[str, Any]) -> None:
        """Record the message ``key`` as taken (its attachments' hashes and jobs)."""


def no_checkpoint(name: str) -> None:
    """The default of ``open_intent``'s checkpoint: nothing to do."""


def check_attempt(job: Job, attempt: int | None) -> None:
    """The attempt number is a fencing token: a worker from an older attempt is refused."""
    check_attempts(job.id, job.attempts, attempt)


def check_attempts(job_id: int | None, attempts: int, attempt: int | None) -> None:
    """``check_attempt`` on the stored job's ``attempts`` alone (read without the job)."""
    if attempt is not None and attempts != attempt:
        raise InvalidTransition.coded(
            "stale_attempt", {"job": job_id, "attempts": attempts, "attempt": attempt}
        )


def error_columns(fields: dict[str, Any]) -> dict[str, Any]:
    """Job or registry fields as a store writes them. A job's ``error`` is a message
    (``domain.messages.Message``) or a plain text: it is stored as its English text
    beside ``error_code`` and ``error_params`` (none for a plain text), so a code never
    outlives the text it words. Texts are scrubbed of secrets on the way: an error
    often quotes what a client library said, and that may echo a key."""
    clean = dict(fields)
    error = clean.get("error")
    if isinstance(error, Message):
        text, code, params = error.columns()
        clean["error"] = text
        clean.setdefault("error_code", code)
        clean.setdefault(
            "error_params",
            {k: scrub_secrets(v) if isinstance(v, str) else v for k, v in params.items()}
            if params
            else None,
        )
    elif "error" in clean and "error_code" not in clean:
        clean["error_code"] = None
        clean["error_params"] = None
    for name in ("error", "task_error"):
        if isinstance(clean.get(name), Message):
            clean[name] = clean[name].english
        if isinstance(clean.get(name), str):
            clean[name] = scrub_secrets(clean[name])
    return clean


def registry_columns(fields: dict[str, Any], encode: Callable[[Any], Any]) -> dict[str, Any]:
    """Registry fields as both stores write them (``encode``: the backend's, for config
    and stats), with ``updated_at``; a field not in REGISTRY_FIELDS is refused."""
    fields = error_columns(fields)
    unknown = set(fields) - REGISTRY_FIELDS
    if unknown:
        raise ValueError(f"unknown registry fields: {sorted(unknown)}")
    values = {k: encode(v) if k in ("config", "stats") else v for k, v in fields.items()}
    if "status" in values:
        values["status"] = RegistryStatus(values["status"]).value
    values["updated_at"] = datetime.now(UTC).isoformat()
    return values


def utc_text(moment: datetime) -> str:
    """ISO UTC text as the ledger keeps it, so that text order is time order."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat()


def spend_growth(before: float | None, after: float | None) -> float:
    """What a request's recorded cost grew by (0 when it did not grow): the part of it
    paid now. A cost only grows (a retry adds to what was paid before)."""
    grown = (after or 0.0) - (before or 0.0)
    return round(grown, 9) if grown > 1e-12 else 0.0
