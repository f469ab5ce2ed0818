"""Where the engine finds its OCR engines and extractors: a pluggy plugin manager.

As OCRmyPDF's ``get_ocr_engine``: each hook (``hooks``) is asked by name, the first
plugin that knows the name answers. DocBatch's own engines and extractors are
plugins like any other (``ocr_engines``, ``extractors``); a package adds its own
through the ``docbatch`` entry-point group, a test through ``plugins().register``.
Adding an engine touches no ``if`` in the steps.
"""

from __future__ import annotations

from functools import cache

import pluggy

from docbatch_gui.domain.errors import ConfigError
from docbatch_gui.engine import extractors, ocr_engines
from docbatch_gui.engine.extractors import Extractor
from docbatch_gui.engine.hooks import PROJECT, Specs
from docbatch_gui.engine.ocr_engines import OcrReader


@cache
def plugins() -> pluggy.PluginManager:
    """The one plugin manager: DocBatch's own plugins, then installed ones."""
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(Specs)
    manager.register(ocr_engines)
    manager.register(extractors)
    manager.load_setuptools_entrypoints(PROJECT)
    return manager


def ocr_reader(name: str) -> OcrReader:
    """The OCR engine of ``OCR_ENGINE``; a ConfigError naming the setting if none."""
    found: OcrReader | None = plugins().hook.docbatch_ocr_engine(name=name)
    if found is None:
        raise ConfigError(f"OCR_ENGINE={name}: no OCR engine of that name is installed")
    return found


def extractor(mode: str) -> Extractor:
    """The extractor of processing mode ``mode``."""
    found: Extractor | None = plugins().hook.docbatch_extractor(mode=mode)
    if found is None:
        raise ConfigError(f"mode {mode}: no extractor of that mode is installed")
    return found
