"""Field checks: what a value gives away about itself, on every path.

Pure functions over documents and the profile (no Qt, no I/O beyond the bundled VAT
rate table): registration numbers (``ids``), VAT arithmetic (``vat``) and the
document-level checker that runs them all (``document``).
"""

from __future__ import annotations

from docbatch_gui.checks.document import (
    CHECK_CODES,
    CHECK_CONFIDENCE,
    DEFAULT_MIN_YEAR,
    DocumentChecker,
    document_text,
)

__all__ = [
    "CHECK_CODES",
    "CHECK_CONFIDENCE",
    "DEFAULT_MIN_YEAR",
    "DocumentChecker",
    "document_text",
]
