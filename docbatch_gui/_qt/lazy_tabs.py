"""Tabs whose pages are built the first time they are shown or asked for.

Building every tab before the window shows cost the first show about 0.1 s of CPU
(the Review tab's editors, the Registry tab's tables, the Settings page, their
modules); most sessions open one or two of them. A lazy page is an empty scroll
area until then; ``page`` and ``built`` build it on demand, so code that reaches for
a tab's widget gets the real one.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QWidget

from docbatch_gui._qt.widgets.fit import ScrollingTabs


class LazyTabs(ScrollingTabs):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._builders: dict[QScrollArea, Callable[[], QWidget]] = {}
        #: called with each page's index and the page once it is built and in place
        self.on_built: Callable[[int, QWidget], None] = lambda _index, _page: None
        self.currentChanged.connect(self._shown)

    def add_lazy_tab(self, build: Callable[[], QWidget], label: str, name: str) -> int:
        """A tab whose page ``build()`` makes when it is first needed; ``name`` is the
        page's class name (the scroll area is named after it, as ``addTab`` does)."""
        area = QScrollArea()
        area.setObjectName(f"{name}Scroll")
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        self._builders[area] = build
        return QTabWidget.addTab(self, area, label)

    def is_built(self, index: int) -> bool:
        return self.widget(index) not in self._builders

    def page(self, index: int) -> QWidget | None:
        """The page at ``index``, built now if it was not yet."""
        area = self.widget(index)
        if isinstance(area, QScrollArea) and area in self._builders:
            page = self._builders.pop(area)()
            area.setWidget(page)
            self.on_built(index, page)
        return super().page(index)

    def setCurrentWidget(self, widget: QWidget) -> None:
        for index in range(self.count()):
            if self.is_built(index) and super().page(index) is widget:
                self.setCurrentIndex(index)
                return
        QTabWidget.setCurrentWidget(self, widget)

    def _shown(self, index: int) -> None:
        if index >= 0:
            self.page(index)
