"""Tabs whose pages scroll on a small screen and are built the first time they are
shown or asked for.

Each page goes into a frameless scroll area that gives it all the room there is, so
at a normal size nothing changes, and a page taller than the screen scrolls rather
than making the window taller (the Log panel docked under a tall tab, say).

Building every tab before the window shows cost the first show about 0.1 s of CPU
(the Review tab's editors, the Registry tab's tables, the Settings page, their
modules); most sessions open one or two of them. A lazy page is an empty scroll
area until then; ``page`` builds it on demand, so code that reaches for a tab's
widget gets the real one. ``setCurrentWidget`` and ``page`` take and give the page
itself, not its scroll area.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QWidget


class LazyTabs(QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._builders: dict[QScrollArea, Callable[[], QWidget]] = {}
        #: called with each page's index and the page once it is built and in place
        self.on_built: Callable[[int, QWidget], None] = lambda _index, _page: None
        self.currentChanged.connect(self._shown)

    def addTab(self, page: QWidget, label: str) -> int:  # type: ignore[override]
        area = _scroll_area(type(page).__name__)
        area.setWidget(page)
        return super().addTab(area, label)

    def add_lazy_tab(self, build: Callable[[], QWidget], label: str, name: str) -> int:
        """A tab whose page ``build()`` makes when it is first needed; ``name`` is the
        page's class name (the scroll area is named after it, as ``addTab`` does)."""
        area = _scroll_area(name)
        self._builders[area] = build
        return super().addTab(area, label)

    def is_built(self, index: int) -> bool:
        return self.widget(index) not in self._builders

    def page(self, index: int) -> QWidget | None:
        """The page at ``index``, built now if it was not yet."""
        area = self.widget(index)
        if isinstance(area, QScrollArea) and area in self._builders:
            page = self._builders.pop(area)()
            area.setWidget(page)
            self.on_built(index, page)
        return area.widget() if isinstance(area, QScrollArea) else area

    def setCurrentWidget(self, widget: QWidget) -> None:
        for index in range(self.count()):
            if self.is_built(index) and self.page(index) is widget:
                self.setCurrentIndex(index)
                return
        super().setCurrentWidget(widget)

    def _shown(self, index: int) -> None:
        if index >= 0:
            self.page(index)


def _scroll_area(name: str) -> QScrollArea:
    area = QScrollArea()
    area.setObjectName(f"{name}Scroll")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area
