"""The job's bar from the steps' declared weights (``engine/steps.py``)."""

from __future__ import annotations

import pytest

from docbatch_gui.engine.steps import BAR, CHECK, EXTRACT, OCR, PREPARE, STORE, WEIGHTS, JobBar


def test_a_step_fills_its_weights_share_of_the_bar() -> None:
    bar = JobBar((("a", 1.0), ("b", 3.0)))
    assert bar.at("a", 0, 4) == 0.0
    assert bar.at("a", 2, 4) == 0.125  # half of a's quarter
    assert bar.done("a") == bar.start("b") == 0.25
    assert bar.at("b", 1, 3) == 0.5
    assert bar.done("b") == 1.0


def test_a_step_with_nothing_to_do_is_done() -> None:
    assert BAR.at(OCR, 0, 0) == BAR.done(OCR)


def test_the_whole_bar_only_moves_forward_step_by_step() -> None:
    values = [BAR.at(step, done, 4) for step in WEIGHTS for done in range(5)]
    assert values == sorted(values)
    assert values[0] == 0.0 and values[-1] == BAR.done(STORE) == 1.0


def test_rendering_is_not_most_of_the_bar() -> None:
    """An operator saw 90% while the pages were rendered and 0% through OCR."""
    assert BAR.done(PREPARE) < 0.5
    assert BAR.done(OCR) - BAR.done(PREPARE) == pytest.approx(BAR.done(PREPARE), abs=0.01)
    assert BAR.done(CHECK) > BAR.done(EXTRACT)


def test_a_pipeline_bar_is_its_own_steps_weights() -> None:
    class Step:
        def __init__(self, name: str, weight: float) -> None:
            self.name, self.weight = name, weight

        async def run(self, ctx: object, job: object) -> object:
            return job

    bar = JobBar.of([Step(PREPARE, 1.0), Step(STORE, 1.0)])  # type: ignore[list-item]
    assert bar.done(PREPARE) == 0.5
    with pytest.raises(KeyError):
        bar.at(OCR, 1, 1)
