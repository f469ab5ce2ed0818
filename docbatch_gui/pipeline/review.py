"""Why a document needs a person: one rule set for the offline extractor and Claude."""

from __future__ import annotations

from collections.abc import Mapping

from docbatch_gui.pipeline.profile import Profile

UNKNOWN = "unknown"


def review_reasons(
    doc_type: str,
    values: Mapping[str, str | None],
    confidence: Mapping[str, float],
    profile: Profile,
) -> list[str]:
    """Unknown type, a required field missing, or a value below the review threshold."""
    reasons: list[str] = []
    if doc_type == UNKNOWN:
        reasons.append("document type unknown")
    spec = profile.doc_type(doc_type)
    for key in spec.required_fields if spec else ():
        if values.get(key) is None:
            reasons.append(f"{key} not found")
    for key, value in values.items():
        score = confidence.get(key, 0.0)
        if value is not None and score < profile.review_threshold:
            reasons.append(f"{key} uncertain (confidence {score:.2f})")
    return reasons
