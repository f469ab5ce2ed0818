"""Checks of the Settings tab beyond the model's own: what the machine can do.

The settings model validates a value as such; whether this computer's Tesseract has
the data for a language is only known here, so it is asked as the operator types and
said in the interface language.
"""

from __future__ import annotations

from docbatch_gui._qt.language import interface_language
from docbatch_gui.engine.ocr_languages import languages_problem


def ocr_languages_error(engine: object, languages: object) -> str | None:
    """Why Tesseract cannot read ``OCR_LANGUAGES``; None when it can or is not used."""
    if engine != "tesseract" or not isinstance(languages, str):
        return None
    problem = languages_problem(languages)
    return problem.words(interface_language()) if problem is not None else None
