"""Dates written with the month's name, in the languages the profile names.

"August 3, 2014", "7. Mai 2014", "19 april 2014", "28 novembre 2022", "12 марта 2024 г."
are read by dateparser, restricted to the profile's ``languages``: a month word is
read only in a language the documents are written in, never guessed across all of
dateparser's. A regular expression finds the date-shaped spans first (a day, a word,
a year, in either order), so dateparser never sees free text: "on", "now" or "today"
are never dates, and every date keeps its place on the line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

_WORD = r"[^\W\d_]{3,12}\.?"
_DAY = r"(?:[0-3]?\d)(?:st|nd|rd|th|er|e|\.)?"
_YEAR = r"(?:19|20)\d{2}"
# "7. Mai 2014", "19 april 2014", "3 août 2014"; "August 3, 2014", "Aug 3rd 2014"
_WRITTEN_RE = re.compile(
    rf"(?<![\w.])(?:{_DAY}\s+(?:de\s+)?{_WORD}\s+(?:de\s+)?{_YEAR}|{_WORD}\s+{_DAY}\s*,?\s+{_YEAR})(?!\d)",
    re.IGNORECASE,
)
_SETTINGS = {
    "STRICT_PARSING": True,
    "REQUIRE_PARTS": ["day", "month", "year"],
    "PREFER_LOCALE_DATE_ORDER": False,
    "RETURN_AS_TIMEZONE_AWARE": False,
}


@lru_cache(maxsize=4096)
def _parse(span: str, languages: tuple[str, ...]) -> str | None:
    # deferred: dateparser, 0.1 s to import
    import dateparser  # imported on first use: the reader of a numeric date never pays

    parsed = dateparser.parse(span, languages=list(languages), settings=_SETTINGS)
    if parsed is None:
        return None
    # the day and year must be the span's own: "12 now 2014" is no date ("now" is)
    day, year = (int(n) for n in (re.findall(r"\d+", span)[0], re.findall(r"\d{4}", span)[-1]))
    if (parsed.day, parsed.year) != (day, year):
        return None
    return parsed.date().isoformat()


def find_written_dates(text: str, languages: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every written date in ``text`` as ``(start, end, iso)``, in text order; empty
    when the profile names no languages."""
    if not languages:
        return []
    found = []
    for match in _WRITTEN_RE.finditer(text):
        iso = _parse(match.group(0), tuple(languages))
        if iso is not None:
            found.append((match.start(), match.end(), iso))
    return found
