"""The one rule every backend applies inside its atomic reservation step."""

from __future__ import annotations

from docbatch_gui.domain.models import CapRefusal, Caps


def refusal(
    caps: Caps,
    usd: float,
    *,
    month_spent: float,
    month_reserved: float,
    run_spent: float,
    run_reserved: float,
) -> CapRefusal | None:
    """The cap ``usd`` more would cross (the run's first, as the admission checks), or
    None: spent + reserved + this must stay within each cap."""
    if caps.run_usd > 0 and run_spent + run_reserved + usd > caps.run_usd:
        return CapRefusal("budget_run_cap", caps.run_usd, run_spent, run_reserved)
    if caps.month_usd > 0 and month_spent + month_reserved + usd > caps.month_usd:
        return CapRefusal("budget_month_cap", caps.month_usd, month_spent, month_reserved)
    return None
