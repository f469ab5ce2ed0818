"""Where separator sheets split a file, as Review shows it: each sheet is a row of its
own in the list between the documents it parted (a page, not a document: it cannot be
selected), and the page-range editor says which sheet a document starts after or ends
before. A person moves a split with that editor: widening a document over a sheet
makes the sheet the document's page (``ReviewService`` records it).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem

from docbatch_gui.domain.models import Document, Job
from docbatch_gui.i18n import _

#: the tree's item data role holding a separator sheet's page (documents have none)
SHEET_ROLE = Qt.ItemDataRole.UserRole + 2  # tab.py holds +0 (the key) and +1 (needs review)


def sheets(job: Job | None) -> list[int]:
    """The separator pages of the job, in order (none when no sheet split it)."""
    split = (job.split if job is not None else None) or {}
    return sorted(int(p) for p in split.get("separators") or [])


def move_hint() -> str:
    return _(
        "A separator sheet split the file here: it is no document and was never sent "
        "to Claude. To move the split, widen a neighbouring document's pages over it."
    )


def sheet_item(job_id: int, page: int) -> QTreeWidgetItem:
    item = QTreeWidgetItem([_("Separator sheet"), str(page)])
    item.setData(0, Qt.ItemDataRole.UserRole, (job_id, None))
    item.setData(0, SHEET_ROLE, page)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled)  # shown, never selected as a document
    font = item.font(0)
    font.setItalic(True)
    item.setFont(0, font)
    for column in (0, 1):
        item.setForeground(column, Qt.GlobalColor.darkGray)
        item.setToolTip(column, move_hint())
    return item


def add_sheet_items(top: QTreeWidgetItem, job: Job, first_pages: list[int]) -> None:
    """The job's sheets among its document rows (``first_pages``: each row's first
    page, in row order), each before the first document starting after it."""
    for page in reversed(sheets(job)):
        position = sum(1 for first in first_pages if first < page)
        top.insertChild(position, sheet_item(job.id, page))


def is_sheet(item: QTreeWidgetItem | None) -> bool:
    return item is not None and item.data(0, SHEET_ROLE) is not None


def split_note(job: Job | None, doc: Document | None) -> str:
    """What the page-range editor says of the sheets at the document's ends."""
    if doc is None:
        return ""
    pages = sheets(job)
    said = []
    if doc.page_from - 1 in pages:
        said.append(_("after the separator sheet on page {page}").format(page=doc.page_from - 1))
    if doc.page_to + 1 in pages:
        said.append(_("before the separator sheet on page {page}").format(page=doc.page_to + 1))
    return "; ".join(said)
