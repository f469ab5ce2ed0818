"""A job's one progress bar over its steps: rendering, OCR, then reading (a sync
request or a batch), each with its share, so the bar only moves forward.

It used to reach 90% while the pages were rendered, then sit at "Reading 90%" for the
whole of a long Claude request, or drop to 10% when a batch was submitted. Now
rendering fills the first part, OCR the next page by page, and reading the rest as
requests are answered; 100% is the final state.
"""

from __future__ import annotations

#: the bar's share when every page is rendered, when OCR ended, when all is read
RENDERED = 0.4
OCR_DONE = 0.7
READ = 0.95


def _between(low: float, high: float, done: int, total: int) -> float:
    share = min(1.0, done / total) if total > 0 else 1.0
    return round(low + (high - low) * share, 3)


def rendering(done: int, total: int) -> float:
    return _between(0.0, RENDERED, done, total)


def ocr(done: int, total: int) -> float:
    return _between(RENDERED, OCR_DONE, done, total)


def reading(share: float) -> float:
    """``share`` (0..1) of the requests answered."""
    return round(OCR_DONE + (READ - OCR_DONE) * max(0.0, min(1.0, share)), 3)
