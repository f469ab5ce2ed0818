"""The queue's table model: one row per job, updated in batches.

Rows are never reset after the first load: a batch of changed jobs becomes one
``dataChanged`` per contiguous block of rows and one ``rowsInserted`` for new jobs,
so a view with 100,000 rows stays smooth while a thousand of them report progress.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QRegularExpression,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QWidget

from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.queue.retry_words import attempt_label, retry_label, retry_note
from docbatch_gui._qt.widgets.icons import state_icon
from docbatch_gui._qt.widgets.table_model import RIGHT, TableModel
from docbatch_gui.domain.attempts import MAX_ATTEMPTS
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.state_names import state_name
from docbatch_gui.domain.states import (
    ACTIVE_STATES,
    FAILURE_STATES,
    FINAL_STATES,
    JobState,
    ProcessingMode,
)
from docbatch_gui.engine.holds import (
    BATCH_SENT,
    KEYED_MODES,
    NEEDS_ANTHROPIC_KEY,
    NEEDS_CLAUDE_REACHABLE,
    NEEDS_VISION_CREDENTIALS,
    OCR_MODES,
    Holds,
    JobHold,
)
from docbatch_gui.i18n import _, pgettext

# Columns
COL_THUMB, COL_FILE, COL_PAGES, COL_STATE = range(4)
COL_PROGRESS, COL_DOCUMENTS, COL_COST, COL_ERROR = range(4, 8)

# Roles
JobRole = Qt.ItemDataRole.UserRole + 1
JobIdRole = Qt.ItemDataRole.UserRole + 2
StateRole = Qt.ItemDataRole.UserRole + 3
ErrorKindRole = Qt.ItemDataRole.UserRole + 4
ProgressRole = Qt.ItemDataRole.UserRole + 5
SortRole = Qt.ItemDataRole.UserRole + 6
#: why a job ended badly, in words: the line painted under its file name
ErrorLineRole = Qt.ItemDataRole.UserRole + 7
#: the job is held for what this installation lacks (its line is amber, not red)
HeldRole = Qt.ItemDataRole.UserRole + 8
#: what the filters match: "state<TAB>error kind<TAB>file name in lower case"
FilterKeyRole = Qt.ItemDataRole.UserRole + 9

THUMB_SIZE = 48
#: the attributes the load counts, read at C speed (a generator over 100,000 jobs
#: cost the load 60 ms)
_ID = attrgetter("id")
_NAME = attrgetter("file_name")
_STATE_MODE = attrgetter("state", "mode")


def error_text(job: Job) -> str:
    """The job's error in the interface language (its stored English without a code)."""
    return job.error_words(interface_language()) or ""


def state_column_width(view: QWidget) -> int:
    """Wide enough for the longest state label in the interface language, with its
    icon: "Needs review" fits in 130 px, its Russian does not. An active state is
    counted with its attempt's number, as the cell shows it while a job is retried."""
    if not JOB_STATE_LABELS:
        refresh_labels()
    metrics = view.fontMetrics()
    widest = max(metrics.horizontalAdvance(label) for label in state_cell_texts())
    return max(130, widest + 16 + 22)  # the icon, the cell's margins and spacing


def state_cell_texts() -> list[str]:
    """Every text the state cell can show: each state, an active one at its last
    automatic attempt too."""
    texts = list(JOB_STATE_LABELS.values())
    texts += [attempt_label(JOB_STATE_LABELS[state], MAX_ATTEMPTS) for state in ACTIVE_STATES]
    return texts


def state_label(state: JobState) -> str:
    return JOB_STATE_LABELS.get(state, str(state))


def _labels() -> dict[JobState, str]:
    return {state: state_name(state) for state in JobState}


JOB_STATE_LABELS: dict[JobState, str] = {}


def refresh_labels() -> None:
    """Re-read the translated labels after the language changed."""
    JOB_STATE_LABELS.clear()
    JOB_STATE_LABELS.update(_labels())


def error_line(job: Job) -> str | None:
    """A failed, timed-out or canceled job's reason, for the line under its name."""
    if job.state not in FAILURE_STATES or not job.error:
        return None
    return " ".join((job.error_words(interface_language()) or job.error).split())


class JobTableModel(TableModel):
    #: a thumbnail is wanted for this job (the view asked for a row without one)
    thumbnail_wanted = Signal(int)
    #: the job's page images changed (turned upright); cached copies are stale
    thumbnail_stale = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        roles = {
            JobRole: lambda job: job,
            JobIdRole: lambda job: job.id,
            StateRole: lambda job: job.state.value,
            ErrorKindRole: lambda job: _kind(job),
            FilterKeyRole: lambda job: f"{job.state.value}\t{_kind(job)}\t{job.file_name.lower()}",
        }
        columns = [
            ("", lambda job: None),
            (_("File"), lambda job: self.display_name(job)),
            (
                pgettext("narrow column", "Pages"),
                lambda job: "" if job.pages is None else str(job.pages),
            ),
            (
                _("State"),
                lambda job: (
                    _("Held")
                    if self.hold(job) is not None
                    else retry_label(job, state_label(job.state))
                ),
            ),
            (_("Progress"), lambda job: f"{job.progress:.0%}" if self._waiting(job) else ""),
            (_("Documents"), lambda job: str(job.documents) if job.documents else ""),
            (_("Cost"), lambda job: _usd(_cost(job))),
            (_("Error"), lambda job: error_text(job).splitlines()[0] if job.error else ""),
        ]
        super().__init__(parent=parent, roles=roles, columns=columns)
        #: what sorting by each column compares
        self._sort_keys: list[Callable[[Job], Any]] = [
            _ID,
            lambda job: job.file_name.lower(),
            lambda job: job.pages or 0,
            lambda job: job.state.value,
            lambda job: job.progress,
            lambda job: job.documents,
            lambda job: job.cost_actual_usd or job.cost_estimate_usd or 0.0,
            lambda job: job.error or "",
        ]
        if not JOB_STATE_LABELS:
            refresh_labels()
        self._items: list[Job] = []
        self._row_of: dict[int, int] = {}
        self._thumbs: dict[int, QPixmap] = {}
        self._thumb_asked: set[int] = set()
        self._thumb_generation: dict[int, int] = {}
        #: jobs per state, kept up to date by every change: the counts line and the
        #: "run finished" check read it after each batch, and counting 100,000 jobs
        #: each time would cost ~40 ms per batch
        self._counts: Counter[JobState] = Counter()
        #: queued jobs per mode, kept the same way: how many are held is read from it
        self._queued_modes: Counter[ProcessingMode] = Counter()
        #: rows per file name: a name listed twice gets the job's number beside it
        self._names: Counter[str] = Counter()
        #: what this installation lacks, and so which queued jobs are held
        self._holds = Holds(has_anthropic_key=True)
        #: a job's last failed attempt, as the engine reported it (the bridge keeps it:
        #: a requeued job no longer carries its error)
        self.last_failure: Callable[[int], Message | None] = lambda _job_id: None

    # -- loading and updating ---------------------------------------------------------

    def load(self, jobs: Sequence[Job]) -> None:
        """The one reset: the first load of the whole queue."""
        self.beginResetModel()
        self._items = list(jobs)
        self._row_of = dict(zip(map(_ID, self._items), range(len(self._items)), strict=True))
        by_state_mode = Counter(map(_STATE_MODE, self._items))
        self._counts = Counter()
        self._queued_modes = Counter()
        for (state, mode), count in by_state_mode.items():
            self._counts[state] += count
            if state is JobState.QUEUED:
                self._queued_modes[mode] += count
        self._names = Counter(map(_NAME, self._items))
        self.endResetModel()

    def apply(self, jobs: Iterable[Job]) -> None:
        """Replace changed jobs in place and append new ones, in as few signals as
        the rows allow."""
        changed: list[int] = []
        new: list[Job] = []
        for job in jobs:
            row = self._row_of.get(job.id)
            if row is None:
                new.append(job)
            else:
                old = self._items[row]
                self._items[row] = job
                changed.append(row)
                self._count_queued(old, -1)
                self._count_queued(job, 1)
                if old.state is not job.state:
                    self._counts[old.state] -= 1
                    self._counts[job.state] += 1
                    self._thumb_asked.discard(job.id)  # its first page may be ready now
                    if job.state in FINAL_STATES:
                        # OCR may have turned the page upright since the first look;
                        # a load still under way for the old image is dropped too
                        self._thumbs.pop(job.id, None)
                        self._thumb_generation[job.id] = self.thumbnail_generation(job.id) + 1
                        self.thumbnail_stale.emit(job.id)
        self.changed_rows(changed)
        if new:
            new.sort(key=lambda j: j.id)
            start = len(self._items)
            self.beginInsertRows(QModelIndex(), start, start + len(new) - 1)
            for offset, job in enumerate(new):
                self._row_of[job.id] = start + offset
                self._items.append(job)
                self._counts[job.state] += 1
                self._count_queued(job, 1)
                self._names[job.file_name] += 1
            self.endInsertRows()
            # an older row whose name a new one repeats now shows its number too
            self._renamed({job.file_name for job in new if self._names[job.file_name] > 1})

    def remove(self, job_ids: Iterable[int]) -> None:
        for job_id in job_ids:
            row = self._row_of.get(job_id)
            if row is None:
                continue
            self.beginRemoveRows(QModelIndex(), row, row)
            self._counts[self._items[row].state] -= 1
            self._count_queued(self._items[row], -1)
            name = self._items[row].file_name
            self._names[name] -= 1
            del self._items[row]
            self.endRemoveRows()
            self._row_of = {job.id: r for r, job in enumerate(self._items)}
            self._thumbs.pop(job_id, None)
            if self._names[name] == 1:  # the one left needs no number any more
                self._renamed({name})

    def _renamed(self, names: set[str]) -> None:
        """Rows of these file names are told apart (or no longer need to be)."""
        if not names:
            return
        rows = [r for r, job in enumerate(self._items) if job.file_name in names]
        if rows:
            self.changed_rows(rows)

    def display_name(self, job: Job) -> str:
        """The file name; with the job's number when another row has the same name
        ("invoice.pdf · #12"), so the two can be told apart."""
        if self._names[job.file_name] > 1:
            return _("{file} · #{job}").format(file=job.file_name, job=job.id)
        return job.file_name

    def _count_queued(self, job: Job, step: int) -> None:
        if job.state is JobState.QUEUED:
            self._queued_modes[job.mode] += step

    # -- holds ---------------------------------------------------------------------------

    def set_holds(self, holds: Holds) -> None:
        """What this installation lacks changed (a key saved or cleared): the queued
        rows are worded again."""
        self._holds = holds
        if self._items:
            last = self.index(len(self._items) - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    @property
    def holds(self) -> Holds:
        return self._holds

    def hold(self, job: Job) -> JobHold | None:
        return self._holds.of(job)

    def held_count(self) -> int:
        """Queued jobs nothing here can start."""
        counted = sum(self._queued_modes[mode] for mode in self._holds.held_modes())
        return counted + len(self.unreachable_ids())

    def unreachable_ids(self) -> list[int]:
        """The jobs held because Claude could not be reached (and for nothing the mode
        says: a missing key is said first): queued ones, and batch jobs whose batch
        is planned or at the API."""
        if not self._holds.unreachable:
            return []
        modes = self._holds.held_modes()
        return [
            j.id
            for j in self._items
            if j.id in self._holds.unreachable
            and (
                j.state is JobState.QUEUED
                or (j.mode is ProcessingMode.BATCH and j.state in BATCH_SENT)
            )
            and j.mode in KEYED_MODES
            and j.mode not in modes
        ]

    def unreachable_in_batches(self) -> bool:
        """Every job held for an unreachable Claude is a batch job whose batch is
        planned or at the API (nothing of them can be read offline any more)."""
        ids = set(self.unreachable_ids())
        return bool(ids) and all(j.state in BATCH_SENT for j in self._items if j.id in ids)

    def held_needs(self) -> list[str]:
        """What the held jobs lack, the key first (``engine.holds``' needs)."""
        queued = self._queued_modes
        needs = []
        if not self._holds.has_anthropic_key and any(queued[m] for m in KEYED_MODES):
            needs.append(NEEDS_ANTHROPIC_KEY)
        if self.unreachable_ids():
            needs.append(NEEDS_CLAUDE_REACHABLE)
        if not self._holds.has_vision_credentials and any(queued[m] for m in OCR_MODES):
            needs.append(NEEDS_VISION_CREDENTIALS)
        return needs

    def held_ids(self) -> list[int]:
        modes = self._holds.held_modes()
        by_mode = [j.id for j in self._items if j.state is JobState.QUEUED and j.mode in modes]
        return by_mode + self.unreachable_ids()

    def thumbnail_generation(self, job_id: int) -> int:
        """Bumped when a job's images may have changed: a thumbnail loaded for an
        older generation is stale."""
        return self._thumb_generation.get(job_id, 0)

    def set_thumbnail(self, job_id: int, pixmap: QPixmap, generation: int = 0) -> None:
        if generation != self.thumbnail_generation(job_id):
            return
        self._thumbs[job_id] = pixmap
        row = self._row_of.get(job_id)
        if row is not None:
            index = self.index(row, COL_THUMB)
            self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])

    def row_of(self, job_id: int) -> int | None:
        return self._row_of.get(job_id)

    def job(self, job_id: int) -> Job | None:
        row = self._row_of.get(job_id)
        return None if row is None else self._items[row]

    def jobs(self) -> list[Job]:
        return list(self._items)

    def count_by_state(self) -> dict[JobState, int]:
        return {state: count for state, count in self._counts.items() if count}

    def busy(self) -> int:
        return sum(
            count
            for state, count in self._counts.items()
            if state in ACTIVE_STATES or state is JobState.QUEUED
        )

    # -- Qt model interface -----------------------------------------------------------

    def item_data(self, job: Job, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DecorationRole:
            if column == COL_THUMB:
                return self._thumbnail(job)
            if column == COL_STATE:
                return state_icon(job.state)
        elif role == Qt.ItemDataRole.ToolTipRole:
            if column == COL_ERROR and job.error:
                return error_text(job)
            if column == COL_FILE:
                reason = self._line(job)
                where = job.source_path
                if self._names[job.file_name] > 1:  # which one of the same name
                    where += "\n" + _("Job {job}, added {added}").format(
                        job=job.id, added=_added(job)
                    )
                return f"{where}\n\n{reason}" if reason else where
            if column == COL_STATE and (hold := self.hold(job)) is not None:
                return hold.words(interface_language())
            if column == COL_STATE:
                return retry_note(job, self.last_failure(job.id))
            if column == COL_COST and job.escalated:
                return _("{first_model}: {first_usd}\n{escalation_model}: {escalation_usd}").format(
                    first_model=job.first_model,
                    first_usd=_usd(job.cost_first_usd),
                    escalation_model=job.escalation_model,
                    escalation_usd=_usd(job.cost_escalation_usd),
                )
        elif role == Qt.ItemDataRole.ForegroundRole and column == COL_ERROR:
            return QColor("#b3261e")
        elif role == Qt.ItemDataRole.TextAlignmentRole and column in (
            COL_PAGES,
            COL_DOCUMENTS,
            COL_COST,
        ):
            return RIGHT
        elif role == ProgressRole:
            return job.progress if self._waiting(job) else None
        elif role == SortRole:
            return self._sort_keys[column](job)
        elif role == ErrorLineRole:
            return self._line(job)
        elif role == HeldRole:
            return self.hold(job) is not None
        return None

    def _waiting(self, job: Job) -> bool:
        """A bar only while there is something to wait for; the state says the rest."""
        return job.state not in FINAL_STATES and self.hold(job) is None

    def _line(self, job: Job) -> str | None:
        """The line under the file name: why it ended badly, or why it is held."""
        hold = self.hold(job)
        if hold is not None:
            return hold.reason(interface_language())
        return error_line(job)

    def _thumbnail(self, job: Job) -> QPixmap | QIcon | None:
        pixmap = self._thumbs.get(job.id)
        if pixmap is not None:
            return pixmap
        if job.pages and job.id not in self._thumb_asked:
            self._thumb_asked.add(job.id)
            self.thumbnail_wanted.emit(job.id)
        return None


class JobFilterProxy(QSortFilterProxyModel):
    """State, error kind and file-name filters; sorting by the source's SortRole.

    The filters are one regular expression over ``FilterKeyRole`` that Qt matches
    itself: a ``filterAcceptsRow`` written in Python was called for each of 100,000
    rows when the queue was loaded, with no filter set (80 ms of the load).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._states: frozenset[str] = frozenset()
        self._error_kind = ""
        self._text = ""
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)
        self.setFilterRole(FilterKeyRole)
        self.setFilterKeyColumn(COL_FILE)

    def set_states(self, states: Iterable[str]) -> None:
        self._states = frozenset(states)
        self._filter_changed()

    def set_error_kind(self, kind: str) -> None:
        self._error_kind = kind
        self._filter_changed()

    def set_text(self, text: str) -> None:
        self._text = text.strip().lower()
        self._filter_changed()

    def _filter_changed(self) -> None:
        """An empty pattern when nothing is filtered: Qt then accepts every row
        without asking the model."""
        pattern = ""
        if self._states or self._error_kind or self._text:
            any_field = "[^\\t]*"
            states = "|".join(map(QRegularExpression.escape, sorted(self._states)))
            kind = QRegularExpression.escape(self._error_kind) if self._error_kind else any_field
            text = QRegularExpression.escape(self._text)
            pattern = f"(?s)^(?:{states or any_field})\\t{kind}\\t.*{text}"
        self.setFilterRegularExpression(pattern)


def _added(job: Job) -> str:
    """When the job was added, in the operator's local time."""
    if job.created_at is None:
        return "?"
    return job.created_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _cost(job: Job) -> float | None:
    return job.cost_actual_usd if job.cost_actual_usd is not None else job.cost_estimate_usd


def _kind(job: Job) -> str:
    return job.error_kind.value if job.error_kind else ""


def _usd(cost: float | None) -> str:
    return "" if cost is None else f"${cost:.4f}"
