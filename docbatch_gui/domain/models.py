"""Plain data classes shared by every layer.

They are frozen and hold only JSON-friendly values so that they can cross process
boundaries (child processes, Celery) and be stored as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from docbatch_gui.domain.errors import ErrorKind
from docbatch_gui.domain.lines import Line, as_lines
from docbatch_gui.domain.messages import Message, stored, word
from docbatch_gui.domain.reasons import ReviewCode, codes_from_body
from docbatch_gui.domain.states import JobState, Phase, ProcessingMode


@dataclass(frozen=True)
class NewJob:
    """What intake knows about a file before any processing."""

    file_name: str
    source_path: str
    sha256: str
    size: int
    mode: ProcessingMode = ProcessingMode.OFFLINE
    duplicate_of: int | None = None
    #: where the file came from when it was not a path of this machine: a mail
    #: message's folder, sender, subject, date and Message-ID (``source: "mail"``)
    origin: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", ProcessingMode(self.mode))


@dataclass(frozen=True)
class Job:
    id: int
    file_name: str
    source_path: str
    sha256: str
    size: int
    mode: ProcessingMode
    state: JobState
    phase: Phase | None
    attempts: int = 0
    deadline: datetime | None = None  # absolute UTC; the worker keeps a monotonic one
    error_kind: ErrorKind | None = None
    error: str | None = None
    termination_confirmed: bool | None = None
    artifacts_deliverable: bool = False
    duplicate_of: int | None = None
    pages: int | None = None
    documents: int = 0
    progress: float = 0.0
    cost_estimate_usd: float | None = None
    cost_actual_usd: float | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    #: times this file's own render or OCR child died while the worker lived: what
    #: counts against the file (a killed or restarted worker does not)
    crashes: int = 0
    #: ``attempts`` when the operator last retried or processed the job again: the
    #: worker's automatic attempts count from here (``domain.attempts``), while
    #: ``attempts`` itself only grows, as it fences a stale worker's writes
    retry_base: int = 0
    #: the message ``error`` words in English (``domain.messages``), for the front ends
    #: to word in their language; None for an error stored without one
    error_code: str | None = None
    error_params: dict[str, Any] = field(default_factory=dict)
    #: the operator deleted the job but kept its documents: the queue no longer lists
    #: it, while Review and the registry still use what it found
    archived: bool = False
    # routing by difficulty (the profile's first and escalation models)
    #: the model of the first answers; None before any Claude request (or offline)
    first_model: str | None = None
    #: whether the job was sent to the escalation model, which one, and why
    escalated: bool = False
    escalation_model: str | None = None
    escalation_reasons: list[str] = field(default_factory=list)
    #: the model(s) whose answers the documents hold ("a, b" when groups differ)
    answered_by: str | None = None
    #: what the first answers and the escalated ones cost (their sum is the actual)
    cost_first_usd: float | None = None
    cost_escalation_usd: float | None = None
    #: where the file came from (``NewJob.origin``); None for a file added by its path
    origin: dict[str, Any] | None = None
    #: files kept beside the job as they came, not read (an ЭДО package's signatures):
    #: ``{"name", "sha256", "size"}``, the bytes in the blob store
    attached: list[dict[str, Any]] = field(default_factory=list)
    #: where separator sheets split the file: ``{"separators": [pages], "segments":
    #: [[first, last]], "asn": [archive serial number or None per segment]}``; None
    #: when it has no separator sheet
    split: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        # stores hand over the text they keep; the type is the contract
        object.__setattr__(self, "mode", ProcessingMode(self.mode))
        if self.error_params is None:
            object.__setattr__(self, "error_params", {})
        if self.escalation_reasons is None:
            object.__setattr__(self, "escalation_reasons", [])
        if self.attached is None:
            object.__setattr__(self, "attached", [])

    @property
    def is_duplicate(self) -> bool:
        return self.duplicate_of is not None

    @property
    def error_message(self) -> Message | None:
        """The error as a message: its code and parameters, else its stored text."""
        return stored(self.error, self.error_code, self.error_params)

    def error_words(self, language: str = "en") -> str | None:
        """The error in ``language``: worded from its code, else the stored text."""
        if self.error is None:
            return None
        return word(self.error_code, self.error_params, language, fallback=self.error)

    def as_dict(self) -> dict[str, Any]:
        """The job as ``jobs --json`` and webhooks give it (JSON-friendly values)."""
        return {
            "id": self.id,
            "file": self.file_name,
            "path": self.source_path,
            "state": self.state.value,
            "phase": self.phase.value if self.phase else None,
            "error_kind": self.error_kind.value if self.error_kind else None,
            "error": self.error,
            "error_code": self.error_code,
            "error_params": self.error_params if self.error_code else None,
            "pages": self.pages,
            "documents": self.documents,
            "mode": self.mode.value,
            "attempts": self.attempts,
            "progress": self.progress,
            "duplicate_of": self.duplicate_of,
            "termination_confirmed": self.termination_confirmed,
            "artifacts_deliverable": self.artifacts_deliverable,
            "sha256": self.sha256,
            "size": self.size,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "updated_at": self.updated_at.isoformat() if self.updated_at else None,
            "cost_estimate_usd": self.cost_estimate_usd,
            "cost_actual_usd": self.cost_actual_usd,
            "first_model": self.first_model,
            "escalated": self.escalated,
            "escalation_model": self.escalation_model,
            "escalation_reasons": list(self.escalation_reasons),
            "answered_by": self.answered_by,
            "cost_first_usd": self.cost_first_usd,
            "cost_escalation_usd": self.cost_escalation_usd,
            "origin": dict(self.origin) if self.origin else None,
            "attached": [dict(item) for item in self.attached],
            "split": dict(self.split) if self.split else None,
        }


@dataclass(frozen=True)
class Page:
    """One rendered page. Artifacts are blob hashes in the blob store.

    ``deliverable`` stays False until the whole prepare step succeeded, so a
    half-rendered file from a killed child is never shown as a result.
    """

    job_id: int
    page_no: int  # 1-based page of the source file
    width: int
    height: int
    image_sha: str | None = None
    thumb_sha: str | None = None
    text: str = ""
    deliverable: bool = False
    rotation: int = 0  # clockwise degrees the rendered image was turned to be upright
    rotation_confidence: float = 0.0
    ocr_engine: str | None = None  # None: the text is the file's own text layer
    ocr_cached: bool = False  # the OCR came from the cache, not from the engine
    #: why the page has no image: the renderer did not finish it (PAGE_TIMEOUT)
    render_error: Message | None = None
    #: how the rotation was decided, in words (OSD's answer and score at the resolution
    #: it read, the text lines' direction): what a reviewer checks
    orientation_note: Message | None = None
    #: the evidence was too weak to turn the page, so it was kept as it is: review it
    orientation_uncertain: bool = False
    #: blob of the page's words with their boxes (``pipeline/words.py``), upright; None
    #: when nothing read the page's words (no text layer and no OCR)
    words_sha: str | None = None
    #: the prepare step's verdict on the page's own text layer (``reliable``, or why
    #: not: ``none``, ``short``, ``images``, ``unreadable``; empty: not judged), which
    #: the request plan reads to send the page as text or as an image
    text_layer: str = ""
    #: share of the page that embedded raster images cover (1.0 for an image file)
    image_cover: float = 0.0
    #: degrees the scan was askew (counter-clockwise positive), as Tesseract measured
    #: it before reading the page straightened; 0: not measured, or straight
    skew: float = 0.0
    #: blob of the page at the request plan's small size (``pipeline.small_image``),
    #: made when the page was rendered for Claude to read as text and a small image;
    #: None for any other page, and for a page turned after it was made
    small_image_sha: str | None = None


@dataclass(frozen=True)
class Document:
    """A document found inside a job's file, with its extracted fields.

    ``fields`` and ``filename_fields`` map field names to normalised strings (ISO
    dates, dot-decimal amounts) or None when unreadable: null over wrong.
    ``review_codes`` say why a person should look (``review_reasons`` words them in
    English). ``locations`` say where each value stands: ``{field: {"page": N,
    "box": [x0, y0, x1, y1]}}``, the page numbered in the file from 1 and the box in
    fractions of the page's width and height, origin top-left.
    """

    job_id: int
    doc_index: int
    doc_type: str
    page_from: int
    page_to: int
    fields: dict[str, str | None] = field(default_factory=dict)
    confidence: dict[str, float] = field(default_factory=dict)
    filename_fields: dict[str, str | None] = field(default_factory=dict)
    handwritten_numbers: list[str] = field(default_factory=list)
    needs_review: bool = False
    review_codes: list[ReviewCode] = field(default_factory=list)
    locations: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: who confirmed the document, and when (ISO UTC); None until a person did
    confirmed_by: str | None = None
    confirmed_at: str | None = None
    #: every change a person made: {"at", "who", "action", "field", "old", "new"}
    audit: list[dict[str, Any]] = field(default_factory=list)
    id: int | None = None
    #: the rows of the document's table of goods, in printed order (``domain.lines``)
    lines: list[Line] = field(default_factory=list)
    #: the row count the document prints ("Всего наименований 120"); None if none
    printed_rows: int | None = None
    #: the table had not ended on the document's last page read: rows may be missing
    table_open: bool = False

    def __post_init__(self) -> None:
        # stores and pipes hand over lines as dicts; the type is the contract
        if self.lines is None or any(not isinstance(line, Line) for line in self.lines):
            object.__setattr__(self, "lines", as_lines(self.lines))

    @property
    def page_label(self) -> str:
        """ "3" or "3–5", as a person reads a page range."""
        if self.page_from == self.page_to:
            return str(self.page_from)
        return f"{self.page_from}–{self.page_to}"

    @property
    def review_reasons(self) -> list[str]:
        """The review codes in English words (the CLI's and the log's)."""
        return [code.words() for code in self.review_codes]

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> Document:
        """A stored document; one saved before review codes existed keeps its reasons
        as notes, and keys this version does not know are dropped."""
        known = {f for f in cls.__dataclass_fields__ if f != "review_codes"}
        return cls(
            **{k: v for k, v in body.items() if k in known}, review_codes=codes_from_body(body)
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "job_id": self.job_id,
            "doc_index": self.doc_index,
            "doc_type": self.doc_type,
            "page_from": self.page_from,
            "page_to": self.page_to,
            "fields": dict(self.fields),
            "confidence": dict(self.confidence),
            "filename_fields": dict(self.filename_fields),
            "handwritten_numbers": list(self.handwritten_numbers),
            "needs_review": self.needs_review,
            "review_reasons": self.review_reasons,
            "review_codes": [code.as_dict() for code in self.review_codes],
            "locations": {k: dict(v) for k, v in self.locations.items()},
            "confirmed_by": self.confirmed_by,
            "confirmed_at": self.confirmed_at,
            "audit": [dict(entry) for entry in self.audit],
            "lines": [line.as_dict() for line in self.lines],
            "printed_rows": self.printed_rows,
            "table_open": self.table_open,
        }


#: the fields of a request record that are messages
_RECORD_MESSAGES = ("error", "note")


@dataclass(frozen=True)
class RequestRecord:
    """One Claude request group of a job: where it stands, what it cost, its answer.

    ``answer`` holds the validated documents of a succeeded group (source page
    numbers), so a retry of the job reuses them instead of paying again.
    """

    job_id: int
    custom_id: str
    group: int
    pages: list[int]
    state: str  # succeeded | errored | pending (in a batch) | retry (for a later batch)
    attempts: int = 0
    error_kind: str | None = None
    error: Message | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float | None = None
    estimate_usd: float | None = None
    mode: str = "sync"
    answer: list[dict[str, Any]] | None = None
    batch: int | None = None  # local id of the batch the request is in (batch mode)
    thinking_tokens: int = 0  # part of output_tokens, kept apart to show what thinking cost
    cache_write_1h_tokens: int = 0  # part of cache_write_tokens written for one hour
    #: the output budget of the next send, when an answer was cut off at max_tokens
    max_tokens: int | None = None
    note: Message | None = None  # something the operator should know about this group
    batch_cost_usd: float | None = None  # what the answer from ``batch`` cost alone
    #: input tokens the seller's confirmed examples added (estimated from their text)
    example_tokens: int = 0
    #: the model the request was sent to (None: a record from before routing, sent
    #: to the settings' model)
    model: str | None = None
    #: "first", or "escalation": the same group read again by the escalation model
    tier: str = "first"
    #: why the group was escalated (``engine.routing.REASONS``)
    reasons: list[str] = field(default_factory=list)

    @property
    def escalation(self) -> bool:
        return self.tier == "escalation"

    def body(self) -> dict[str, Any]:
        """The stored form: ``error`` and ``note`` as their English texts, each with its
        code and parameters beside it (``error_message``, ``note_message``), so a batch
        job failed from this record later is worded again in the reader's language."""
        body = dict(self.__dict__)
        for name in _RECORD_MESSAGES:
            said: Message | None = body.pop(name)
            body[name] = said.english if said is not None else None
            if said is not None and said.code:
                body[f"{name}_message"] = said.as_dict()
        return body

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> RequestRecord:
        body = dict(body)
        for name in _RECORD_MESSAGES:
            message = body.pop(f"{name}_message", None) or {}
            body[name] = stored(body.get(name), message.get("code"), message.get("params"))
        return cls(**body)


@dataclass(frozen=True)
class BatchRecord:
    """One Message Batch, from the intent written before ``create`` to its results.

    ``batch_id`` is None until the API's id is saved; an intent without one is
    resolved on recovery by listing the batches created in ``window_start`` ..
    ``window_end`` and matching them, so a crash never pays for a batch twice.
    """

    request_ids: list[str]
    job_ids: list[int]
    window_start: str  # ISO UTC
    status: str = "intent"  # intent | in_progress | canceling | ended | failed | void
    batch_id: str | None = None
    window_end: str | None = None
    created_at: str | None = None
    ended_at: str | None = None
    request_counts: dict[str, int] = field(default_factory=dict)
    results_done: bool = False
    cost_estimate_usd: float | None = None
    cost_actual_usd: float | None = None
    model: str | None = None  # what the requests were sent with
    effort: str | None = None  # e.g. "effort low, thinking off"
    thinking_tokens: int = 0
    #: the batch's prompt tokens by how they were billed, from its answers' ``usage``
    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    id: int | None = None

    @property
    def cache_hit_rate(self) -> float | None:
        """The share of the batch's prompt tokens read from the prompt cache
        (``cache_read_input_tokens`` over those plus ``input_tokens`` and
        ``cache_creation_input_tokens``); None before its results are in."""
        prompt = self.input_tokens + self.cache_read_tokens + self.cache_write_tokens
        return round(self.cache_read_tokens / prompt, 4) if prompt else None

    def body(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "id"}


@dataclass(frozen=True)
class OcrRecord:
    """One page's OCR, cached by file content, page and engine: a reprocess, a
    duplicate dropped again or a retry after a crash never pays for it twice."""

    sha256: str
    page_no: int
    engine: str
    text: str
    rotation: int = 0
    rotation_confidence: float = 0.0
    orientation_note: Message | None = None
    orientation_uncertain: bool = False
    #: blob of the words OCR read with their boxes, on the page as the file shows it
    #: (before any turn): the page's own turn is applied when the record is used
    words_sha: str | None = None
    #: degrees the scan was askew, straightened before reading (``Page.skew``)
    skew: float = 0.0


@dataclass(frozen=True)
class Reservation:
    """Money set aside in the store for a paid request before it is sent: its
    high-end estimate, until the answer's actual cost is in the spend ledger.

    ``owner`` is ``host:pid`` of the process that sends it (a dead one's reservation
    is released), or ``batch:<local id>`` for a created batch, whose requests run at
    the API whatever happens to the process (released when its results are in).
    ``run`` is the admitted run it counts against (the run cap), if any."""

    key: str
    usd: float
    owner: str
    run: str | None = None
    at: str = ""  # ISO UTC, refreshed while the owner lives


@dataclass(frozen=True)
class Caps:
    """The caps a reservation must stay within; 0 means no cap."""

    month_start: datetime
    month_usd: float = 0.0
    run_usd: float = 0.0


@dataclass(frozen=True)
class CapRefusal:
    """A reservation that would cross a cap: which (``budget_month_cap`` or
    ``budget_run_cap``), the cap, and what was spent and reserved against it."""

    code: str
    cap_usd: float
    spent_usd: float
    reserved_usd: float
