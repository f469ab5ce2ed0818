"""The hooks a DocBatch plugin implements (pluggy): an OCR engine by name, an
extractor by processing mode. ``plugins`` holds the manager that asks them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from docbatch_gui.engine.extractors import Extractor
    from docbatch_gui.engine.ocr_engines import OcrReader

PROJECT = "docbatch"
hookspec = pluggy.HookspecMarker(PROJECT)
#: marks a plugin's answer: ``@hookimpl def docbatch_ocr_engine(name): ...``
hookimpl = pluggy.HookimplMarker(PROJECT)


class Specs:
    """Each hook is asked by name; the first plugin that knows it answers (the last
    registered is asked first, so a plugin can replace one of DocBatch's own)."""

    @hookspec(firstresult=True)
    def docbatch_ocr_engine(self, name: str) -> OcrReader | None:
        """The OCR engine called ``name`` (the ``OCR_ENGINE`` setting), or None."""

    @hookspec(firstresult=True)
    def docbatch_extractor(self, mode: str) -> Extractor | None:
        """The extractor of jobs of processing mode ``mode``, or None."""
