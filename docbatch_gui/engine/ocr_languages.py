"""Whether Tesseract can read the languages ``OCR_LANGUAGES`` asks for.

A language Tesseract has no data for fails every scan at the first page, long after
the setting was saved. Asked here against ``tesseract --list-langs``, the Settings tab
refuses it as it is typed, and ``docbatch doctor`` names it.
"""

from __future__ import annotations

from docbatch_gui.domain.messages import Message
from docbatch_gui.engine.ocr_engines import TESSERACT_CODES
from docbatch_gui.pipeline.ocr_tesseract import tesseract_languages


def missing_languages(setting: str, installed: list[str] | None = None) -> list[str]:
    """The codes of ``OCR_LANGUAGES`` ("ru,en", or Tesseract's "rus") with no data."""
    known = set(tesseract_languages() if installed is None else installed)
    codes = [c.strip() for c in setting.replace("+", ",").split(",") if c.strip()]
    return [c for c in codes if TESSERACT_CODES.get(c, c) not in known]


def languages_problem(setting: str, installed: list[str] | None = None) -> Message | None:
    """Why Tesseract cannot read these languages, as a message; None when it can
    (or when Tesseract is not installed at all: the engine's own check says that)."""
    known = tesseract_languages() if installed is None else installed
    if not known:
        return None
    missing = missing_languages(setting, known)
    if not missing:
        return None
    shown = ", ".join(k for k in sorted(known) if k != "osd")
    return Message("ocr_language_missing", {"missing": ", ".join(missing), "installed": shown})
