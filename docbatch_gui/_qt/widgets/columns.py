"""A table header's context menu that shows and hides columns.

On a 1024-pixel screen a wide table keeps its main columns in sight and starts with
the secondary ones hidden; the operator brings any of them back from the header's
menu (the queue's Error column, the batches' model and cache hits)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QTableView, QWidget

from docbatch_gui.i18n import _

#: told (column, shown) when the operator shows or hides a column from the menu
Chosen = Callable[[int, bool], None]


def column_actions(
    table: QTableView, fixed: Collection[int], parent: QWidget, chosen: Chosen | None = None
) -> list[QAction]:
    """One checkable action per column of ``table`` that may be hidden (all but the
    ``fixed`` ones and those without a title); ``chosen`` hears the operator's choice
    (a table that hides columns to fit keeps it)."""
    header = table.horizontalHeader()
    model = table.model()
    actions = []
    for column in range(model.columnCount()):
        title = model.headerData(column, Qt.Orientation.Horizontal)
        if column in fixed or not title:
            continue
        action = QAction(str(title).replace("\n", " "), parent)  # a title on two lines
        action.setCheckable(True)
        action.setChecked(not header.isSectionHidden(column))
        action.toggled.connect(
            lambda shown, column=column: header.setSectionHidden(column, not shown)
        )
        if chosen is not None:
            action.toggled.connect(lambda shown, column=column: chosen(column, shown))
        actions.append(action)
    return actions


def offer_columns_menu(
    table: QTableView,
    fixed: Collection[int] | Callable[[], Collection[int]],
    owner: QWidget,
    chosen: Chosen | None = None,
) -> None:
    """Right-clicking ``table``'s header opens the menu of its columns; ``fixed`` may be
    asked each time the menu opens (columns that move with the table's content)."""
    header = table.horizontalHeader()

    def popup(where: QPoint) -> None:
        menu = QMenu(owner)
        menu.setToolTipsVisible(True)
        menu.addSection(_("Columns"))
        shut = fixed() if callable(fixed) else fixed
        for action in column_actions(table, shut, menu, chosen):
            menu.addAction(action)
        menu.popup(header.mapToGlobal(where))

    header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    header.customContextMenuRequested.connect(popup)
