"""The Batches table model: one row per Message Batch, refreshed in place.

Each poll hands over every batch as ``BatchRow``s; rows that changed get one
``dataChanged`` per contiguous block, new batches are inserted at the top (newest
first) and nothing is ever reset, so the selection and scroll position survive.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QColor, QIcon

from docbatch_gui._qt.widgets.icons import disc_icon
from docbatch_gui._qt.widgets.table_model import RIGHT, TableModel
from docbatch_gui.app.batch_stats import BatchRow
from docbatch_gui.i18n import _, ngettext, pgettext

# Columns
COL_BATCH, COL_STATUS, COL_REQUESTS, COL_PROGRESS, COL_AGE, COL_EXPIRES = range(6)
COL_JOBS, COL_ESTIMATE, COL_ACTUAL, COL_MODEL, COL_CACHE = range(6, 11)

# Roles
BatchRowRole = Qt.ItemDataRole.UserRole + 1
LocalIdRole = Qt.ItemDataRole.UserRole + 2
StatusRole = Qt.ItemDataRole.UserRole + 3
BatchProgressRole = Qt.ItemDataRole.UserRole + 4
CancelableRole = Qt.ItemDataRole.UserRole + 5

#: status: (colour, glyph) of its icon
STATUS_STYLE: dict[str, tuple[str, str]] = {
    "intent": ("#8a8f98", "…"),
    "in_progress": ("#7b1fa2", "↻"),
    "canceling": ("#e37400", "–"),
    "ended": ("#188038", "✓"),
    "canceled": ("#5f6368", "–"),
    "failed": ("#d93025", "✕"),
}
#: under this much time left, "expires in" is shown in red
EXPIRY_WARNING = timedelta(hours=2)

NUMERIC = (COL_REQUESTS, COL_AGE, COL_EXPIRES, COL_JOBS, COL_ESTIMATE, COL_ACTUAL, COL_CACHE)


def status_label(status: str) -> str:
    labels = {
        "intent": _("Creating"),
        "in_progress": _("In progress"),
        "canceling": _("Canceling"),
        "ended": _("Ended"),
        "canceled": pgettext("batch state", "Canceled"),
        "failed": _("Failed"),
    }
    return labels.get(status, status)


def status_icon(status: str) -> QIcon:
    color, glyph = STATUS_STYLE.get(status, ("#8a8f98", "?"))
    return disc_icon(color, glyph)


def duration(value: timedelta | None) -> str:
    """ "2 d 4 h", "3 h 12 min", "45 min", "< 1 min": what a person reads at a glance."""
    if value is None:
        return ""
    minutes = int(value.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return _("{days} d {hours} h").format(days=days, hours=hours)
    if hours:
        return _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    if minutes:
        return _("{minutes} min").format(minutes=minutes)
    return _("< 1 min")


def model_label(model: str | None, effort: str | None) -> str:
    """ "claude-haiku-5-5 · low, thinking off": what the requests were sent with."""
    if model is None:
        return "—"
    if not effort:
        return model
    level, _comma, rest = effort.removeprefix("effort ").partition(",")
    effort = ",".join((_effort_words().get(level, level), rest)) if rest else level
    effort = effort.replace("thinking off", _("thinking off"))
    effort = effort.replace("thinking on", _("thinking on"))
    return f"{model} · {effort}"


def _effort_words() -> dict[str, str]:
    """The effort levels (``CLAUDE_EFFORT``) as the Batches tab says them."""
    return {
        "auto": _("auto"),
        "default": _("default"),
        "low": pgettext("batch effort", "low"),
        "medium": pgettext("batch effort", "medium"),
        "high": pgettext("batch effort", "high"),
        "xhigh": pgettext("batch effort", "very high"),
        "max": pgettext("batch effort", "maximum"),
    }


def money(value: float | None) -> str:
    return "" if value is None else f"${value:,.4f}"


def percent(share: float | None) -> str:
    return "" if share is None else f"{share:.0%}"


class BatchTableModel(TableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        columns = [
            (_("Batch"), lambda row: row.batch_id or _("(being created)")),
            (_("Status"), lambda row: status_label(row.status)),
            (_("Requests"), lambda row: f"{row.done:,} / {row.total:,}"),
            (_("Progress"), lambda row: f"{row.progress:.0%}"),
            (_("Age"), lambda row: duration(row.age)),
            (_("Expires in"), lambda row: duration(row.expires_in) or "—"),
            (_("Jobs"), lambda row: f"{row.jobs:,}"),
            (_("Estimated"), lambda row: money(row.cost_estimate_usd)),
            (_("Actual"), lambda row: money(row.cost_actual_usd) or "—"),
            (_("Model"), lambda row: model_label(row.model, row.effort)),
            (_("Cache hits"), lambda row: percent(row.cache_hit_rate) or "—"),
        ]
        roles = {
            BatchRowRole: lambda row: row,
            LocalIdRole: lambda row: row.local_id,
            StatusRole: lambda row: row.status,
            BatchProgressRole: lambda row: row.progress,
            CancelableRole: lambda row: row.cancelable,
        }
        super().__init__(parent=parent, roles=roles, columns=columns)
        self._items: list[BatchRow] = []

    # -- updating -------------------------------------------------------------------------

    def update(self, rows: Sequence[BatchRow]) -> None:
        """Bring the table to ``rows`` (newest first) without a reset."""
        wanted = {r.local_id: r for r in rows}
        for row in reversed(range(len(self._items))):
            if self._items[row].local_id not in wanted:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._items[row]
                self.endRemoveRows()
        changed = []
        for row, old in enumerate(self._items):
            new = wanted.pop(old.local_id)
            if new != old:
                self._items[row] = new
                changed.append(row)
        self.changed_rows(changed)
        if wanted:
            fresh = sorted(wanted.values(), key=lambda r: -r.local_id)
            self.beginInsertRows(QModelIndex(), 0, len(fresh) - 1)
            self._items[:0] = fresh
            self.endInsertRows()

    def row_of(self, local_id: int) -> int | None:
        return next((n for n, r in enumerate(self._items) if r.local_id == local_id), None)

    def batch(self, row: int) -> BatchRow:
        return self._items[row]

    # -- Qt model interface -----------------------------------------------------------------

    def item_data(self, row: BatchRow, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DecorationRole and column == COL_STATUS:
            return status_icon(row.status)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMERIC:
            return RIGHT
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._foreground(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        return None

    def _foreground(self, row: BatchRow, column: int) -> QColor | None:
        if column == COL_EXPIRES and row.expires_in is not None and row.expires_in < EXPIRY_WARNING:
            return QColor("#d93025")
        if column in (COL_EXPIRES, COL_ACTUAL, COL_CACHE) and self.shown(row, column) == "—":
            return QColor("#8a8f98")
        return None

    def _tooltip(self, row: BatchRow, column: int) -> str | None:
        if column == COL_BATCH:
            return _("Local batch {local_id}").format(local_id=row.local_id)
        if column == COL_EXPIRES and row.expires_in is not None:
            return _(
                "The API ends a batch 24 hours after it was created; requests not finished "
                "by then expire and are sent again in a later batch."
            )
        if column == COL_ESTIMATE:
            return _("Estimated before sending, at batch prices")
        if column == COL_ACTUAL and row.cost_actual_usd is None:
            return _("Known once the results are in")
        if column == COL_ACTUAL and row.thinking_tokens:
            return ngettext(
                "Includes {count} thinking token, billed as output",
                "Includes {count} thinking tokens, billed as output",
                row.thinking_tokens,
            ).format(count=f"{row.thinking_tokens:,}")
        if column == COL_MODEL:
            return _("The model, effort and thinking these requests were sent with")
        if column == COL_CACHE:
            return _(
                "Share of the batch's prompt tokens read from the prompt cache (billed at a "
                "tenth of the input price); known once the results are in"
            )
        return None
