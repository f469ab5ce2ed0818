"""The review screen's form: showing a document, its confidence markers and history,
and collecting the operator's edits. A mixin of
:class:`docbatch_gui._qt.review.tab.ReviewTab`, which builds the widgets.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TypedDict

from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext, interface_language
from docbatch_gui._qt.review.fields import (
    FieldEditor,
    field_color,
    field_problems,
    value_boxes,
)
from docbatch_gui._qt.widgets.icons import SURE, disc_icon
from docbatch_gui._qt.widgets.page_view import PageView
from docbatch_gui.checks.duplicates import is_marked
from docbatch_gui.domain.models import Document, Job
from docbatch_gui.i18n import _


class DocEdits(TypedDict):
    """The form's values, as keyword arguments of ``ReviewService.edit``."""

    fields: dict[str, str | None]
    doc_type: str | None
    pages: tuple[int, int]


def local_time(at: object) -> str:
    """A stored UTC time ("2024-03-05T10:00:00+00:00") as the operator's clock showed
    it; anything unreadable is shown as stored."""
    try:
        moment = datetime.fromisoformat(str(at))
    except ValueError:
        return str(at)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def audit_line(entry: dict[str, object], actions: dict[str, str], fields: dict[str, str]) -> str:
    """One line of the history, at local time; ``actions`` and ``fields`` give the
    operator's words (translated) for the stored keys, anything missing is shown as
    stored."""
    head = f"{local_time(entry['at'])} {entry['who']}:"
    action = str(entry["action"])
    if action == "confirm":
        return f"{head} {actions.get(action, action)}"
    if action == "separator_taken":  # the sheet's page is all there is to say
        return f"{head} {actions.get(action, action)} {entry.get('new')}"
    old = "" if entry.get("old") is None else entry["old"]
    new = "" if entry.get("new") is None else entry["new"]
    field = str(entry.get("field") or "")
    return f"{head} {actions.get(action, action)} {fields.get(field, field)} {old} → {new}"


class ReviewForm(QWidget):
    ctx: GuiContext
    current: Document | None
    current_job: Job | None
    editors: dict[str, FieldEditor]
    markers: dict[str, QLabel]
    field_keys: list[str]
    field_labels: dict[str, str]
    type_combo: QComboBox
    page_from: QSpinBox
    page_to: QSpinBox
    form_box: QGroupBox
    reasons: QLabel
    history: QPlainTextEdit
    page_view: PageView
    save_button: QPushButton
    confirm_button: QPushButton
    not_duplicate_button: QPushButton

    def _show(self, doc: Document | None) -> None:
        self.current = doc
        self._set_enabled(doc is not None)
        self.not_duplicate_button.setVisible(doc is not None and is_marked(doc))
        if doc is None:
            return
        total = max(self.current_job.pages or doc.page_to, 1) if self.current_job else doc.page_to
        self.form_box.setTitle(_("Document {number}").format(number=doc.doc_index + 1))
        index = self.type_combo.findData(doc.doc_type)
        if index < 0:
            self.type_combo.addItem(doc.doc_type, doc.doc_type)
            index = self.type_combo.count() - 1
        self.type_combo.setCurrentIndex(index)
        for spin, value in ((self.page_from, doc.page_from), (self.page_to, doc.page_to)):
            spin.setRange(1, total)
            spin.setValue(value)
        language = interface_language()
        problems = field_problems(doc, language, self.field_labels)
        for key, editor in self.editors.items():
            editor.setText(doc.fields.get(key) or "")
            self._mark(editor, key, doc, problems.get(key))
        reasons = (
            [code.words(language, self.field_labels) for code in doc.review_codes]
            if doc.needs_review
            else []
        )
        if doc.confirmed_by:
            reasons = [
                _("Confirmed by {confirmed_by} at {local_time}").format(
                    confirmed_by=doc.confirmed_by, local_time=local_time(doc.confirmed_at)
                )
            ]
        self.reasons.setText("\n".join(reasons))
        actions = {
            "confirm": _("confirmed"),
            "edit": _("changed"),
            "type": _("changed"),
            "pages": _("changed"),
            "not_duplicate": _("said it is not a duplicate of document"),
            "separator_taken": _("moved a split: took in the separator sheet on page"),
        }
        fields = {**self.field_labels, "doc_type": _("type"), "pages": _("pages")}
        self.history.setPlainText("\n".join(audit_line(e, actions, fields) for e in doc.audit))
        focused = next((k for k, e in self.editors.items() if e.hasFocus()), None)
        if focused is not None:
            self.page_view.canvas.chosen = focused  # the next document shows the same field
        self.page_view.show_pages(
            doc.job_id,
            list(range(doc.page_from, doc.page_to + 1)),
            value_boxes(doc, self.field_labels),
        )

    def _mark(
        self, editor: FieldEditor, key: str, doc: Document, problem: tuple[list[str], str] | None
    ) -> None:
        """The field's dot and tooltip; a field a check doubts is marked in place."""
        found = doc.fields.get(key) is not None
        confidence = doc.confidence.get(key) if key in doc.fields else None
        marker = self.markers[key]
        marker.setPixmap(disc_icon(field_color(doc, key).name(), "").pixmap(12, 12))
        if not found:
            tip = _("Missing: not found in the document; type it from the page")
        elif (
            confidence is not None
            and confidence >= 1.0
            and any(e.get("field") == key for e in doc.audit)
        ):
            tip = _("Sure: typed by a person")
        elif confidence is None:
            tip = _("Unsure: the reader gave no confidence; compare it with the page")
        elif confidence < SURE:
            tip = _(
                "Unsure: the reader is only {confidence:.0%} sure of this value; "
                "compare it with the page"
            ).format(confidence=confidence)
        else:
            tip = _("Sure: confidence {confidence:.0%}").format(confidence=confidence)
        marker.setToolTip(tip)
        reasons, color = problem if problem else ([], None)
        editor.show_state(tip, reasons, color)

    def check_typed(self, key: str) -> None:
        """The field's checks as it is typed: an INN failing its checksum is marked
        before Save, with the reason Save would give. The checks are pure and cheap
        (a checksum, a date), so they run here; nothing is stored until Save."""
        doc = self.current
        if doc is None:
            return
        typed = self.editors[key].text().strip() or None
        candidate = replace(doc, fields={**doc.fields, key: typed})
        checked = self.ctx.app.review.checker.check(candidate)
        problems = field_problems(checked, interface_language(), self.field_labels)
        self._mark(self.editors[key], key, checked, problems.get(key))

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (self.form_box, self.save_button, self.confirm_button):
            widget.setEnabled(enabled)

    def next_empty_field(self) -> None:
        keys = self.field_keys
        focused = next((k for k, e in self.editors.items() if e.hasFocus()), None)
        start = keys.index(focused) + 1 if focused in keys else 0
        for key in keys[start:] + keys[:start]:
            if not self.editors[key].text().strip():
                self.editors[key].setFocus()
                return

    def edits(self) -> DocEdits:
        doc = self.current
        assert doc is not None
        fields: dict[str, str | None] = {
            key: editor.text()
            for key, editor in self.editors.items()
            if (editor.text().strip() or None) != doc.fields.get(key)
        }
        return {
            "fields": fields,
            "doc_type": self.type_combo.currentData(),
            "pages": (self.page_from.value(), self.page_to.value()),
        }
