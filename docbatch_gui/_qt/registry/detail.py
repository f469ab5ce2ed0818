"""The selected result explained: the document's first page beside the row's values,
the score sub-rule by sub-rule with where each matched value stands on its page
(outlined on the thumbnail), the runner-up, warnings and the manual-change history.

The page image is scaled in a worker thread (PageImages); when the operator moves on
before it arrives, the late image is dropped instead of showing the wrong document.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.registry.models import ResultRow, display
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui._qt.widgets.thumbs import PageImages
from docbatch_gui.domain.models import Document
from docbatch_gui.i18n import _, pgettext
from docbatch_gui.registry.where import matched_locations, value_location, where_text
from docbatch_gui.registry.words import comparator_words, document_field_words, rule_words

THUMB_W, THUMB_H = 200, 260


class MatchDetail(QWidget):
    def __init__(self, ctx: GuiContext, images: PageImages, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.images = images
        self._shown_row: int | None = None
        self.thumb = QLabel()
        self.thumb.setFixedSize(THUMB_W, THUMB_H)
        self.thumb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.thumb.setStyleSheet("border: 1px solid palette(mid); background: palette(base);")
        self.values = QTableWidget(0, 2)
        self.values.setHorizontalHeaderLabels([_("Column"), _("Value")])
        self.values.verticalHeader().hide()
        self.values.verticalHeader().setDefaultSectionSize(24)
        self.values.horizontalHeader().setStretchLastSection(True)
        self.values.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.score_label = QLabel()
        self.score_label.setWordWrap(True)
        self.breakdown = QTableWidget(0, 7)
        # short headers, each explained in its tooltip: seven columns share half of a
        # 1024-pixel window, and Russian words are longer than English ones
        headers = [
            (_("Sub-rule"), _("The rule's sub-rule: field and how it is compared")),
            (_("Registry"), _("The value in the registry row")),
            (_("Document"), _("The value found in the document")),
            (_("Similarity"), _("How similar the two values are")),
            (_("Weight"), _("The sub-rule's share of the score")),
            (_("Result"), _("✓ passed, ✗ failed, or the value is missing")),
            (
                pgettext("narrow column", "Page"),
                _("The page of the file the document value stands on"),
            ),
        ]
        for column, (label, tip) in enumerate(headers):
            header_item = QTableWidgetItem(label)
            header_item.setToolTip(tip)
            self.breakdown.setHorizontalHeaderItem(column, header_item)
        self.breakdown.verticalHeader().hide()
        self.breakdown.verticalHeader().setDefaultSectionSize(26)
        # the sub-rule wraps onto more lines in a narrow window rather than being cut
        # ("Number (simil…"): each row is as high as its text needs
        self.breakdown.setWordWrap(True)
        self.breakdown.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.breakdown.setMinimumHeight(130)
        sections = self.breakdown.horizontalHeader()
        sections.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        sections.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # elided, with a tip
        self.breakdown.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.notes = QLabel()
        self.notes.setTextFormat(Qt.TextFormat.PlainText)  # user data
        self.notes.setWordWrap(True)
        self.assign_button = QPushButton(_("Assign document…"))
        self.unassign_button = QPushButton(_("Unassign"))
        self.history = QPlainTextEdit()
        self.history.setReadOnly(True)
        self.history.setMaximumHeight(56)
        self.history.setPlaceholderText(_("No manual changes to this row."))
        head = filled(QHBoxLayout(), self.thumb, (self.values, 1))
        buttons = filled(QHBoxLayout(), self.assign_button, self.unassign_button, STRETCH)
        parts = (head, self.score_label, (self.breakdown, 1), self.notes, buttons, self.history)
        filled(QVBoxLayout(self), *parts, margins=0)
        self.show_row(None)

    def show_row(self, item: ResultRow | None) -> None:
        self._shown_row = item.row if item else None
        self.setEnabled(item is not None)
        self.values.setRowCount(0)
        self.breakdown.setRowCount(0)
        self.thumb.setPixmap(QPixmap())
        self.thumb.setText(_("No document") if item else "")
        self.history.setPlainText("")
        if item is None:
            self.score_label.setText(_("Select a row to see its match explained."))
            self.notes.setText("")
            return
        for header, value in item.raw.items():
            self._append(self.values, [header, display(value)])
        self._fit_names()
        result = item.result
        doc = item.document
        if doc is not None and result is not None:
            self.score_label.setText(
                _(
                    "<b>Row {row}</b> → {file}, p. {page}, {doc_type} {number}: "
                    "score <b>{score:.0%}</b>{rule}"
                ).format(
                    row=item.row,
                    file=item.file_name,
                    page=doc.page_label,
                    doc_type=self.ctx.doc_type_label(doc.doc_type),
                    number=doc.fields.get("number") or "",
                    score=result.score,
                    rule=_(" (rule “{rule}”)").format(rule=rule_words(result.rule))
                    if result.rule
                    else "",
                )
            )
            spawn(self._load_thumb(item.row, doc, result.explanation))
        else:
            self.score_label.setText(
                _("<b>Row {row}</b>: no document scores above the threshold.").format(row=item.row)
            )
        language = interface_language()
        for e in result.explanation if result else []:
            outcome = (
                _("missing in {side}").format(side=self._side(e["missing"]))
                if e.get("missing")
                else "✓"
                if e.get("passed")
                else "✗"
            )
            spot = value_location(doc, str(e["document_field"])) if doc is not None else None
            sub_rule = (
                f"{self.ctx.field_label(e['field'])} "
                f"({comparator_words(e['comparator'], language)})"
                + (" *" if e.get("required") else "")
            )
            compared = _("{field_label} compared with {document_field_words}; * required").format(
                field_label=self.ctx.field_label(e["field"]),
                document_field_words=document_field_words(
                    e["document_field"], self.ctx.field_label, language
                ),
            )
            self._append(
                self.breakdown,
                [
                    sub_rule,
                    display(e.get("registry_value")),
                    display(e.get("document_value")),
                    f"{float(e.get('similarity') or 0):.0%}",
                    display(e.get("weight")),
                    outcome,
                    _("p. {spot}").format(spot=spot["page"]) if spot else "",
                ],
                tips={0: f"{sub_rule}\n{compared}", 6: where_text(spot, language) if spot else ""},
            )
        notes = []
        if item.runner_up is not None and result and result.runner_up_score is not None:
            r = item.runner_up
            notes.append(
                _("Runner-up: {file}, p. {page}, {number}: {score:.0%}").format(
                    file=item.runner_up_file,
                    page=r.page_label,
                    number=r.fields.get("number") or "",
                    score=result.runner_up_score,
                )
            )
        else:
            notes.append(_("No runner-up."))
        if result and result.warnings:
            notes.append("⚠ " + "; ".join(result.warnings_in(language)))
        self.notes.setText("\n".join(notes))
        self.unassign_button.setEnabled(doc is not None)
        self.history.setPlainText("\n".join(item.history))

    def _side(self, missing: str) -> str:
        """Where a value is missing ("registry", "document" or both) in words."""
        return {
            "registry": _("the registry"),
            "document": _("the document"),
            "registry and document": _("both"),
        }.get(missing, missing)

    def _append(
        self, table: QTableWidget, values: list[str], tips: dict[int, str] | None = None
    ) -> None:
        row = table.rowCount()
        table.insertRow(row)
        for col, value in enumerate(values):
            cell = QTableWidgetItem(value)
            cell.setToolTip((tips or {}).get(col) or value)
            table.setItem(row, col, cell)

    def _fit_names(self) -> None:
        """The registry's column names in full where they fit, else in at most half
        of the table (elided, each with its tooltip), so the values stay readable."""
        self.values.resizeColumnToContents(0)
        half = max(80, self.values.viewport().width() // 2)
        if self.values.columnWidth(0) > half:
            self.values.setColumnWidth(0, half)

    async def _load_thumb(self, row: int, doc: Document, explanation: list[dict]) -> None:
        image = await self.images.preview(doc.job_id, doc.page_from, THUMB_W - 4, THUMB_H - 4)
        if self._shown_row != row:
            return  # the operator moved on meanwhile
        if image is None:
            self.thumb.setText(_("No page image"))
        else:
            spots = [
                s for _, s in matched_locations(doc, explanation) if s["page"] == doc.page_from
            ]
            self.thumb.setPixmap(QPixmap.fromImage(outlined(image, spots)))


def outlined(image: QImage, spots: list[dict]) -> QImage:
    """The page image with a frame around each matched value standing on it."""
    if not spots:
        return image
    framed = image.convertToFormat(QImage.Format.Format_RGB32)
    painter = QPainter(framed)
    painter.setPen(QPen(QColor(220, 40, 40), 1.5))
    width, height = framed.width(), framed.height()
    for spot in spots:
        x0, y0, x1, y1 = (float(v) for v in spot["box"])
        painter.drawRect(QRectF(x0 * width - 1, y0 * height - 1, (x1 - x0) * width + 2,
                                (y1 - y0) * height + 2))  # fmt: skip
    painter.end()
    return framed
