"""Why a document needs a person: one rule set for the offline extractor and Claude."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.models import Document, Page
from docbatch_gui.domain.reasons import ReviewCode
from docbatch_gui.pipeline.textutil import page_ranges

UNKNOWN = "unknown"


def review_reasons(
    doc_type: str,
    values: Mapping[str, str | None],
    confidence: Mapping[str, float],
    profile: Profile,
) -> list[ReviewCode]:
    """Unknown type, a required field missing, or a value below the review threshold."""
    reasons: list[ReviewCode] = []
    if doc_type == UNKNOWN:
        reasons.append(ReviewCode("type_unknown"))
    spec = profile.doc_type(doc_type)
    for key in spec.required_fields if spec else ():
        if values.get(key) is None:
            reasons.append(ReviewCode("field_missing", key))
    for key, value in values.items():
        score = confidence.get(key, 0.0)
        if value is not None and score < profile.review_threshold:
            reasons.append(ReviewCode("low_confidence", key, {"confidence": round(score, 2)}))
    return reasons


def with_page_notes(documents: Sequence[Document], pages: Sequence[Page]) -> list[Document]:
    """Each document with what went wrong on its own pages: a page the renderer gave
    up (only its text layer was read) or an orientation too uncertain to act on. Both
    send the document to review, whatever mode read it."""
    skipped = [p.page_no for p in pages if p.render_error]
    uncertain = [p.page_no for p in pages if p.orientation_uncertain]
    if not skipped and not uncertain:
        return list(documents)
    noted = []
    for document in documents:
        inside = range(document.page_from, document.page_to + 1)
        reasons = []
        mine = [n for n in skipped if n in inside]
        if mine:
            reasons.append(ReviewCode("pages_not_rendered", params={"pages": page_ranges(mine)}))
        mine = [n for n in uncertain if n in inside]
        if mine:
            reasons.append(ReviewCode("orientation_uncertain", params={"pages": page_ranges(mine)}))
        if reasons:
            document = replace(
                document, needs_review=True, review_codes=[*document.review_codes, *reasons]
            )
        noted.append(document)
    return noted
