"""Page images for the GUI, loaded off the GUI thread and cached.

The facade makes a thumbnail on first request (rendered pages are kept as full
images); reading and scaling happen in a worker thread, only the final QPixmap is
made on the GUI thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap

from docbatch_gui.app.facade import DocBatchApp
from docbatch_gui.app.host import EngineHost
from docbatch_gui.domain.errors import NotFound
from docbatch_gui.domain.models import Page

log = logging.getLogger(__name__)

CACHE_SIZE = 2000


class PageImages:
    def __init__(self, host: EngineHost) -> None:
        self.host = host
        self._thumbs: OrderedDict[tuple[int, int], QPixmap] = OrderedDict()
        self._previews: OrderedDict[tuple[int, int, int, int], QImage] = OrderedDict()

    @property
    def app(self) -> DocBatchApp:
        """The host's facade of the moment (new settings open a new one)."""
        return self.host.app

    def clear(self) -> None:
        """Forget every cached image: the queue now comes from another store."""
        self._thumbs.clear()
        self._previews.clear()

    def forget(self, job_id: int) -> None:
        """Drop a job's cached images (its pages were turned upright after OCR)."""
        for key in [k for k in self._thumbs if k[0] == job_id]:
            del self._thumbs[key]
        for preview in [k for k in self._previews if k[0] == job_id]:
            del self._previews[preview]

    async def thumbnail(self, job_id: int, page_no: int) -> QPixmap | None:
        key = (job_id, page_no)
        if key in self._thumbs:
            self._thumbs.move_to_end(key)
            return self._thumbs[key]
        try:
            data = await asyncio.to_thread(self.app.thumbnail, job_id, page_no)
        except (NotFound, OSError) as exc:
            log.debug("no thumbnail for job %s page %s: %s", job_id, page_no, exc)
            return None
        pixmap = QPixmap.fromImage(QImage.fromData(data))
        self._thumbs[key] = pixmap
        while len(self._thumbs) > CACHE_SIZE:
            self._thumbs.popitem(last=False)
        return pixmap

    async def preview(self, job_id: int, page_no: int, width: int, height: int) -> QImage | None:
        """The page scaled to fit a box, scaled in a worker thread (QImage, unlike
        QPixmap, may be used off the GUI thread)."""
        key = (job_id, page_no, width, height)
        cached = self._previews.get(key)
        if cached is not None:
            return cached

        def load() -> QImage | None:
            image = QImage.fromData(self.app.page_image(job_id, page_no))
            if image.isNull():
                return None
            return image.scaled(
                width,
                height,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )

        try:
            image = await asyncio.to_thread(load)
        except (NotFound, OSError):
            return None
        if image is not None:
            self._previews[key] = image
            while len(self._previews) > CACHE_SIZE // 4:
                self._previews.popitem(last=False)
        return image

    async def page_image(self, job_id: int, page_no: int) -> QImage | None:
        """The full rendered page, for the review screen (not cached: it is large).
        Decoded in the worker thread as well: a full page takes tens of milliseconds."""

        def load() -> QImage:
            return QImage.fromData(self.app.page_image(job_id, page_no))

        try:
            return await asyncio.to_thread(load)
        except (NotFound, OSError) as exc:
            log.debug("no image for job %s page %s: %s", job_id, page_no, exc)
            return None

    async def page_record(self, job_id: int, page_no: int) -> Page | None:
        """What is known about the page (why it has no image, how it was turned)."""
        pages = await asyncio.to_thread(self.app.pages, job_id)
        return next((p for p in pages if p.page_no == page_no), None)
