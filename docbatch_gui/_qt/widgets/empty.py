"""A sentence over an empty table: what to do when there is nothing, or why nothing
is shown when a filter hides every row.

An empty white table says nothing to an operator: did the files not arrive, is the
filter wrong, is it still loading? The hint is a label on the view's viewport, shown
while the view has no rows and kept centred as the view is resized.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel


class EmptyHint(QLabel):
    def __init__(self, view: QAbstractItemView, text: Callable[[], str]) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.text_for = text
        self.setObjectName("emptyHint")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setStyleSheet("color: palette(mid); font-size: 12pt; padding: 24px;")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # drops go through
        model = view.model()
        for signal in (
            model.rowsInserted,
            model.rowsRemoved,
            model.modelReset,
            model.layoutChanged,
        ):
            signal.connect(self.refresh)
        view.viewport().installEventFilter(self)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        empty = self.view.model().rowCount() == 0
        if empty:
            self.setText(self.text_for())
            self.setGeometry(self.view.viewport().rect())
        self.setVisible(empty)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self.view.viewport().rect())
        return False
