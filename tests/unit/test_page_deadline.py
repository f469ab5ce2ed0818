"""A page's time: the smaller of PAGE_TIMEOUT and what the job can afford."""

from __future__ import annotations

import pytest

from docbatch_gui.pipeline.page_deadline import SHORTEST_PAGE, PageDeadline, page_deadline


def test_a_long_job_gives_each_page_its_page_timeout() -> None:
    assert page_deadline(900, 15, 60, None) == PageDeadline(60, by_job=False)


def test_a_short_job_gives_the_first_page_its_fair_share() -> None:
    """JOB_TIMEOUT=120 and 15 pages: PAGE_TIMEOUT=60 would never fire first."""
    deadline = page_deadline(120, 15, 60, None)
    assert deadline == PageDeadline(pytest.approx(8.0), by_job=True)


def test_a_fair_share_under_the_shortest_page_time_is_raised_to_it() -> None:
    """JOB_TIMEOUT=40 and 15 pages (the case reported): 2.7 s would skip a healthy page
    on a busy machine; 5 s still leaves 35 s for the other 14."""
    assert page_deadline(40, 15, 60, None) == PageDeadline(SHORTEST_PAGE, by_job=True)


def test_a_page_timeout_under_the_shortest_page_time_is_kept() -> None:
    assert page_deadline(5, 6, 2, None) == PageDeadline(2, by_job=False)


def test_quick_pages_leave_a_slow_one_more_than_a_fair_share() -> None:
    """20 s left, 10 pages to go at 0.1 s a page: the others keep 2 x 0.1 s each."""
    deadline = page_deadline(20, 10, 60, 0.1)
    assert deadline == PageDeadline(pytest.approx(20 - 9 * 0.2), by_job=True)


def test_slow_pages_still_leave_each_page_its_fair_share() -> None:
    deadline = page_deadline(100, 10, 60, 20.0)
    assert deadline == PageDeadline(pytest.approx(10.0), by_job=True)


def test_the_last_page_may_take_all_that_is_left() -> None:
    assert page_deadline(7, 1, 60, 0.2) == PageDeadline(7, by_job=True)


def test_no_page_timeout_means_no_page_deadline() -> None:
    assert page_deadline(40, 15, None, None) is None


def test_a_page_always_gets_some_time() -> None:
    assert page_deadline(0.1, 50, 60, None) == PageDeadline(SHORTEST_PAGE, by_job=True)
