"""A page as a zoomable picture with the extracted values' boxes drawn on it.

A graphics view rather than a scaled label: the boxes are items in the page's own
pixel coordinates, so they stay on their words at any zoom without being recomputed,
and hovering or clicking one is the item's own event. The zoom is the canvas's, not
the page's: it survives a change of page or document for the whole session.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QKeyEvent,
    QPainter,
    QPen,
    QPixmap,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QGraphicsView,
    QStyle,
    QWidget,
)

ZOOM_STEP = 1.25
MIN_ZOOM = 0.05
MAX_ZOOM = 8.0
#: room kept around a page fitted to the view, in view pixels
FIT_MARGIN = 8
#: room kept around a box scrolled into view, so its neighbourhood shows too
BOX_MARGIN = 32

Fit = Literal["width", "page"]


@dataclass(frozen=True)
class ValueBox:
    """Where a field's value stands: a 1-based page of the file and a box in fractions
    of that page's width and height (origin top-left, upright page)."""

    field: str
    page: int
    box: tuple[float, float, float, float]
    color: str
    tip: str


class BoxItem(QGraphicsRectItem):
    """One value's box: faint until its field is selected, then filled."""

    def __init__(self, spec: ValueBox, canvas: PageCanvas, parent: QGraphicsPixmapItem) -> None:
        size = parent.pixmap().size()
        x0, y0, x1, y1 = spec.box
        w, h = size.width(), size.height()
        super().__init__(QRectF(x0 * w, y0 * h, (x1 - x0) * w, (y1 - y0) * h), parent)
        self.spec = spec
        self._canvas = canvas
        self.setAcceptHoverEvents(True)
        self.setToolTip(spec.tip)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.set_chosen(False)

    def set_chosen(self, chosen: bool) -> None:
        color = QColor(self.spec.color)
        pen = QPen(color, 3 if chosen else 1.5)
        pen.setCosmetic(True)  # the same line width at any zoom
        self.setPen(pen)
        fill = QColor(color)
        fill.setAlpha(80 if chosen else 18)
        self.setBrush(QBrush(fill))
        self.setZValue(2 if chosen else 1)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._canvas.box_clicked.emit(self.spec.field)
            event.accept()
        else:
            super().mousePressEvent(event)


class PageCanvas(QGraphicsView):
    """The page image, zoomed by Ctrl+wheel, +/− or fitting; a plain wheel scrolls."""

    #: the field whose box was clicked
    box_clicked = Signal(str)
    #: the scale now (view pixels per page image pixel)
    zoom_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self._page = QGraphicsPixmapItem()
        self._page.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.scene().addItem(self._page)
        self._boxes: dict[str, BoxItem] = {}
        self.chosen: str | None = None
        #: how the zoom follows the view's size; None keeps ``zoom`` as set
        self.fit: Fit | None = "width"
        self.zoom = 1.0
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    # -- the page and its boxes --------------------------------------------------------

    def set_image(self, image: QImage | None, keep_scroll: bool = False) -> None:
        """Show a page (None clears it); the zoom stays as the operator left it. A new
        page starts at its top left; the same page shown again (``keep_scroll``, after
        a save) stays put."""
        self.set_boxes([])
        pixmap = QPixmap() if image is None else QPixmap.fromImage(image)
        self._page.setPixmap(pixmap)
        self.scene().setSceneRect(QRectF(pixmap.rect()))
        self._apply_zoom(self.zoom if self.fit is None else self._fitted())
        if not keep_scroll:
            for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
                bar.setValue(bar.minimum())

    def has_image(self) -> bool:
        return not self._page.pixmap().isNull()

    def set_boxes(self, boxes: list[ValueBox]) -> None:
        """Draw the boxes of the page shown (faint); ``choose`` fills one."""
        for item in self._boxes.values():
            self.scene().removeItem(item)
        self._boxes = {}
        if self.has_image():
            self._boxes = {spec.field: BoxItem(spec, self, self._page) for spec in boxes}
        self.choose(self.chosen, reveal=False)

    def box_item(self, field: str) -> BoxItem | None:
        return self._boxes.get(field)

    def page_rect(self) -> QRectF:
        """The page as shown, in viewport pixels."""
        return self.viewportTransform().mapRect(self._page.sceneBoundingRect())

    def box_rect(self, field: str) -> QRectF | None:
        """A field's box as shown, in viewport pixels; None when it is not drawn."""
        item = self._boxes.get(field)
        if item is None:
            return None
        return self.viewportTransform().mapRect(item.mapRectToScene(item.rect()))

    def choose(self, field: str | None, reveal: bool = True) -> bool:
        """Fill ``field``'s box and, with ``reveal``, bring it into view; False when this
        page has no box for it."""
        self.chosen = field
        for key, item in self._boxes.items():
            item.set_chosen(key == field)
        chosen = self._boxes.get(field or "")
        if chosen is None:
            return False
        if reveal:
            self._reveal(chosen.mapRectToScene(chosen.rect()))
        return True

    def _reveal(self, rect: QRectF) -> None:
        """Scroll to the box, zooming out first when it is larger than the view."""
        room = self._room()
        wide = rect.width() * self.zoom + 2 * BOX_MARGIN > room.x()
        tall = rect.height() * self.zoom + 2 * BOX_MARGIN > room.y()
        if wide or tall:
            self.fit = None
            scale = min(
                (room.x() - 2 * BOX_MARGIN) / max(rect.width(), 1.0),
                (room.y() - 2 * BOX_MARGIN) / max(rect.height(), 1.0),
            )
            self._apply_zoom(scale)
            self.centerOn(rect.center())
            return
        self.ensureVisible(rect, BOX_MARGIN, BOX_MARGIN)

    # -- zoom ----------------------------------------------------------------------------

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / ZOOM_STEP)

    def fit_width(self) -> None:
        self.fit = "width"
        self._apply_zoom(self._fitted())

    def fit_page(self) -> None:
        self.fit = "page"
        self._apply_zoom(self._fitted())

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``zoom``, keeping the page point under ``anchor`` (a viewport
        position; the view's centre when None) where it is."""
        self.fit = None
        self._apply_zoom(zoom, anchor)

    def _room(self) -> QPointF:
        """The view's inner size, scroll bars not counted."""
        frame = 2 * self.frameWidth()
        return QPointF(self.width() - frame, self.height() - frame)

    def _fitted(self) -> float:
        size = self._page.pixmap().size()
        if size.isEmpty():
            return self.zoom
        room = self._room()
        width = (room.x() - FIT_MARGIN) / size.width()
        if self.fit == "page":
            return min(width, (room.y() - FIT_MARGIN) / size.height())
        if size.height() * width > room.y():  # a vertical scroll bar will take its room
            bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
            width = (room.x() - FIT_MARGIN - bar) / size.width()
        return width

    def _apply_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        point = anchor if anchor is not None else QPointF(self.viewport().rect().center())
        before = self.mapToScene(point.toPoint())
        self.setTransform(QTransform.fromScale(zoom, zoom))
        after = self.mapFromScene(before)
        horizontal, vertical = self.horizontalScrollBar(), self.verticalScrollBar()
        horizontal.setValue(horizontal.value() + after.x() - point.toPoint().x())
        vertical.setValue(vertical.value() + after.y() - point.toPoint().y())
        changed = zoom != self.zoom
        self.zoom = zoom
        if changed:
            self.zoom_changed.emit(zoom)

    # -- input ---------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        """Ctrl+wheel zooms about the pointer; a plain wheel scrolls, as everywhere."""
        if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            super().wheelEvent(event)
            return
        steps = event.angleDelta().y() / 120
        if steps:
            self.set_zoom(self.zoom * ZOOM_STEP**steps, event.position())
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """+ and − zoom while the page has the focus (Ctrl++ and Ctrl+− work from the
        whole Review tab, as actions)."""
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_out()
        else:
            super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.fit is not None:
            self._apply_zoom(self._fitted())
