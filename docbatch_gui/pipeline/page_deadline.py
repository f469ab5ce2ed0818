"""How long one page may take to render: never more than PAGE_TIMEOUT, and never more
than the job can afford with the pages still to come.

A fixed PAGE_TIMEOUT longer than the job's own deadline never fires: a file whose first
page hangs would time out whole. So each page gets the smaller of PAGE_TIMEOUT and its
share of the time left. Before any page is rendered the share is the time left divided
by the pages left; once the pace of this file is known, the other pages keep twice
their measured time and the page at hand may take the rest (a file of quick pages can
give a slow one more than a fair share), and no page gets less than SHORTEST_PAGE.
OCRmyPDF's rule (skip a page past its
deadline, keep the file) holds only with a page deadline the job can afford.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the other pages keep this many times their measured pace
PACE_MARGIN = 2.0
#: a page is never given up sooner (unless PAGE_TIMEOUT is shorter): a healthy page
#: renders in well under a second, and a share of a long file's time (600 s for 2,000
#: pages) would otherwise skip healthy pages whenever the machine is busy
SHORTEST_PAGE = 5.0


@dataclass(frozen=True)
class PageDeadline:
    """One page's time: ``seconds``, and whether the job's time (not PAGE_TIMEOUT)
    set it, which is what the skipped page's reason says."""

    seconds: float
    by_job: bool


def page_deadline(
    remaining: float, pages_left: int, page_timeout: float | None, pace: float | None
) -> PageDeadline | None:
    """The next page's time, given the job's ``remaining`` seconds, the ``pages_left``
    to render (this one included), ``PAGE_TIMEOUT`` (None: no page limit) and the mean
    seconds a rendered page of this file has taken (None: none yet)."""
    if page_timeout is None:
        return None
    left = max(pages_left, 1)
    if pace is None:
        share = remaining / left
    else:
        share = max(remaining - (left - 1) * pace * PACE_MARGIN, remaining / left)
    share = max(share, min(SHORTEST_PAGE, page_timeout))
    if share < page_timeout:
        return PageDeadline(share, by_job=True)
    return PageDeadline(page_timeout, by_job=False)
