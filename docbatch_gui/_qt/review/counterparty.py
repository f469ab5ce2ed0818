"""The Review tab's "Known counterparty" panel: what the seller's confirmed documents
showed (name, usual types, VAT rate, number format, how many), beside the document a
person is checking, and ways to forget: the whole seller when the memory misleads, or
only what the shown document taught when it was confirmed by mistake.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QPushButton, QWidget

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import confirm
from docbatch_gui.domain.counterparty import Counterparty
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.i18n import _, ngettext

NOTHING = "—"


class CounterpartyPanel(QGroupBox):
    #: the INN just forgotten
    forgotten = Signal(str)
    #: the document whose confirmation was just forgotten
    document_forgotten = Signal(int)

    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(_("Known counterparty"), parent)
        self.ctx = ctx
        self.counterparty: Counterparty | None = None
        #: the document the panel stands beside (None: no document)
        self.document_id: int | None = None
        form = QFormLayout(self)
        self.name, self.types, self.rates, self.formats, self.count = (QLabel() for _ in range(5))
        for label in (self.name, self.types, self.rates, self.formats, self.count):
            label.setTextFormat(Qt.TextFormat.PlainText)  # names are the documents' text
            label.setWordWrap(True)
        form.addRow(_("Name"), self.name)
        form.addRow(_("Usual types"), self.types)
        form.addRow(_("VAT rate"), self.rates)
        form.addRow(_("Number format"), self.formats)
        form.addRow(_("Confirmed documents"), self.count)
        self.forget_button = QPushButton(_("Forget this counterparty…"))
        self.forget_button.setToolTip(
            _("Its next documents are checked as a new seller's; documents stay as they are")
        )
        self.forget_button.clicked.connect(lambda: spawn(self.forget(), self._failed))
        form.addRow(self.forget_button)
        self.forget_document_button = QPushButton(_("Forget this document's confirmation…"))
        self.forget_document_button.setToolTip(
            _("What this document taught about the seller is forgotten; the rest is kept")
        )
        self.forget_document_button.clicked.connect(
            lambda: spawn(self.forget_document(), self._failed)
        )
        form.addRow(self.forget_document_button)
        self.hide()

    def show_counterparty(
        self, counterparty: Counterparty | None, document_id: int | None = None
    ) -> None:
        """Show what is known of the seller, or hide the panel for a new one; offer to
        forget document ``document_id``'s confirmation when it is one the memory holds."""
        self.counterparty = counterparty
        self.document_id = document_id
        self.setVisible(counterparty is not None)
        if counterparty is None:
            return
        taught = any(d.document_id == document_id for d in counterparty.recent)
        self.forget_document_button.setVisible(document_id is not None and taught)
        self.setTitle(_("Known counterparty: INN {inn}").format(inn=counterparty.inn))
        self.name.setText(counterparty.name or NOTHING)
        types = [f"{self.ctx.doc_type_label(t)} ({n})" for t, n in counterparty.doc_types.items()]
        self.types.setText(", ".join(types) or NOTHING)
        rates = [f"{rate}% ({n})" for rate, n in counterparty.vat_rates.items()]
        self.rates.setText(", ".join(rates) or NOTHING)
        formats = [
            f"{self.ctx.doc_type_label(t)}: {', '.join(shapes)}"
            for t, shapes in counterparty.number_formats.items()
        ]
        self.formats.setText("; ".join(formats) or NOTHING)
        self.count.setText(str(counterparty.confirmed))

    async def forget(self) -> None:
        """Forget the shown seller, after the operator confirms it."""
        counterparty = self.counterparty
        if counterparty is None:
            return
        if not await confirm(
            self,
            _("Forget counterparty"),
            ngettext(
                "Forget what {count} confirmed document taught about {name} (INN {inn})? Its "
                "next documents are checked as a new seller's; the documents themselves stay.",
                "Forget what {count} confirmed documents taught about {name} (INN {inn})? Its "
                "next documents are checked as a new seller's; the documents themselves stay.",
                counterparty.confirmed,
            ).format(
                count=counterparty.confirmed,
                name=counterparty.name or NOTHING,
                inn=counterparty.inn,
            ),
        ):
            return
        await asyncio.to_thread(self.ctx.app.review.forget_counterparty, counterparty.inn)
        self.show_counterparty(None)
        self.forgotten.emit(counterparty.inn)

    async def forget_document(self) -> None:
        """Forget what the shown document's confirmation taught, after the operator
        confirms it (a confirmation made by mistake)."""
        counterparty, document_id = self.counterparty, self.document_id
        if counterparty is None or document_id is None:
            return
        if not await confirm(
            self,
            _("Forget this document's confirmation"),
            _(
                "Forget what this document taught about {name} (INN {inn})? The seller's other "
                "confirmed documents are kept, and so is the document itself."
            ).format(name=counterparty.name or NOTHING, inn=counterparty.inn),
        ):
            return
        await asyncio.to_thread(self.ctx.app.review.forget_confirmation, document_id)
        self.document_forgotten.emit(document_id)

    def _failed(self, error: BaseException) -> None:
        if isinstance(error, DocBatchError):
            self.ctx.notifier.notify(str(error), "error")
