"""The Review form's field rows: an editor per field with its confidence dot, the dots'
legend, the mark on a field a check doubts, and where each value stands on the page.

Kept apart from the tab so that the form says, next to the value itself, what the
reasons above it say in a list: the operator's eye is on the field being corrected.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor, QFocusEvent
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QLineEdit, QWidget

from docbatch_gui._qt.widgets.icons import SURE, disc_icon
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui._qt.widgets.page_canvas import ValueBox
from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.models import Document
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.i18n import _

#: what a field's dot and mark say, one meaning per colour (the legend lists them)
MISSING_COLOR = "#d93025"  # not found in the document
UNSURE_COLOR = "#e37400"  # read, but the reader is not sure of it
SURE_COLOR = "#188038"  # read and sure, or typed by a person
DOUBTED_COLOR = "#8e24aa"  # a check (a checksum, the page, the seller's history) doubts it
#: the review code that says the reader was unsure: the dot's colour, not a check
UNSURE_CODES = frozenset({"low_confidence"})


class FieldEditor(QLineEdit):
    """A field's editor that says when it gets the focus (the page then shows where its
    value stands) and carries the mark of a failed check."""

    focused = Signal(str)

    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.setClearButtonEnabled(True)
        #: the "!" inside the editor, shown while a check doubts the value
        self.problem = QAction(self)
        self.addAction(self.problem, QLineEdit.ActionPosition.TrailingPosition)
        self.show_state("", [], None)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focused.emit(self.key)

    def show_state(self, tip: str, reasons: list[str], color: str | None) -> None:
        """The dot's words (``tip``), and the reasons a check gave about this value: a
        border and a "!" whose tooltip is those reasons (None: no check doubts it)."""
        self.problem.setVisible(color is not None)
        if color is None:
            self.setStyleSheet("")
            self.setToolTip(tip)
            return
        self.problem.setIcon(disc_icon(color, "!"))
        self.problem.setToolTip("\n".join(reasons))
        self.setStyleSheet(f"QLineEdit {{ border: 2px solid {color}; border-radius: 3px; }}")
        self.setToolTip("\n".join([*reasons, tip]))


@dataclass
class FieldRows:
    """The editors and dots of the profile's fields, by key, in the profile's order."""

    keys: list[str] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    editors: dict[str, FieldEditor] = field(default_factory=dict)
    markers: dict[str, QLabel] = field(default_factory=dict)


def add_field_rows(form: QFormLayout, profile: Profile, language: str) -> FieldRows:
    """A row per field of ``profile`` (label in ``language``), then the dots' legend."""
    rows = FieldRows(keys=list(profile.field_keys))
    for key in rows.keys:
        spec = profile.field(key)
        label = (spec.labels.get(language) or spec.labels.get("en")) if spec else None
        editor = FieldEditor(key)
        marker = QLabel()
        marker.setFixedWidth(16)
        rows.editors[key] = editor
        rows.markers[key] = marker
        rows.labels[key] = label or key
        form.addRow(label or key, filled(QHBoxLayout(), marker, (editor, 1)))
    form.addRow(ConfidenceLegend())
    return rows


class ConfidenceLegend(QLabel):
    """What the dots' colours mean, under the fields they mark: one word each, short
    enough for one line in a small window; what each means is in its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setStyleSheet("color: palette(mid);")
        sure = round(SURE * 100)
        #: (colour, word, what it means), as shown
        self.entries: list[tuple[QColor, str, str]] = [
            (
                QColor(MISSING_COLOR),
                _("missing"),
                _("Missing: not found in the document"),
            ),
            (
                QColor(UNSURE_COLOR),
                _("unsure"),
                _("Unsure: read with a confidence under {sure}%, or none given").format(sure=sure),
            ),
            (
                QColor(SURE_COLOR),
                _("sure"),
                _("Sure: confidence {sure}% or more, or typed by a person").format(sure=sure),
            ),
            (
                QColor(DOUBTED_COLOR),
                _("doubted"),
                _("Doubted: a check (a checksum, the page, the seller's history) "
                        "doubts the value; the ! says why"),
            ),
        ]  # fmt: skip
        self.setText(
            " ".join(
                f'<span style="color: {color.name()}">●</span>&nbsp;{html.escape(word)}'
                for color, word, _ in self.entries
            )
        )
        self.setToolTip("\n".join(meaning for _, _, meaning in self.entries))


def checks_about(doc: Document, key: str) -> list[ReviewCode]:
    """The review codes of checks that doubt this field's value (not the reader's own
    uncertainty, which the dot shows)."""
    return [c for c in doc.review_codes if c.field == key and c.code not in UNSURE_CODES]


def field_color(doc: Document, key: str) -> QColor:
    """The one colour of a field's dot and box: doubted by a check, else missing,
    else unsure or sure by the reader's confidence."""
    if checks_about(doc, key):
        return QColor(DOUBTED_COLOR)
    if doc.fields.get(key) is None:
        return QColor(MISSING_COLOR)
    confidence = doc.confidence.get(key)
    if confidence is None or confidence < SURE:
        return QColor(UNSURE_COLOR)
    return QColor(SURE_COLOR)


def field_problems(
    doc: Document, language: str, labels: dict[str, str]
) -> dict[str, tuple[list[str], str]]:
    """Per field, the reasons checks give about it (worded with the fields' labels) and
    the colour of its "!": the reader's own uncertainty is the dot's, not a check's."""
    keys = {code.field for code in doc.review_codes if code.field}
    found = {key: checks_about(doc, key) for key in keys}
    return {
        key: ([code.words(language, labels) for code in codes], DOUBTED_COLOR)
        for key, codes in found.items()
        if codes
    }


def value_boxes(doc: Document, labels: dict[str, str]) -> list[ValueBox]:
    """The document's value locations as boxes to draw; a malformed or empty location
    is left out rather than drawn somewhere wrong."""
    boxes: list[ValueBox] = []
    for key, where in doc.locations.items():
        try:
            page = int(where["page"])
            x0, y0, x1, y1 = (min(1.0, max(0.0, float(v))) for v in where["box"])
        except (KeyError, TypeError, ValueError):
            continue
        if x1 <= x0 or y1 <= y0:
            continue
        value = doc.fields.get(key) or ""
        tip = f"{labels.get(key, key)}: {value}"
        boxes.append(ValueBox(key, page, (x0, y0, x1, y1), field_color(doc, key).name(), tip))
    return boxes
