"""Where the document values a registry row was matched on stand on their pages.

The explanation pane and the export both show it, so that whoever checks a match
looks at the spot on the page instead of reading the whole document. Locations are
found when documents are saved (``Document.locations``); only values read from the
content have one (not those from the file name or handwritten numbers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from docbatch_gui.domain.models import Document
from docbatch_gui.i18n import NP_, translation

__all__ = ["DEFAULT_PATHS", "matched_locations", "value_location", "where_text", "where_words"]

#: what the export shows for a document matched by hand (no explanation to go by)
DEFAULT_PATHS = ("from_content.number", "from_content.date", "from_content.amount")


def value_location(document: Document, path: str) -> dict[str, Any] | None:
    """``{"page", "box"}`` of the value a sub-rule reads (``from_content.X``), or None."""
    source, _, name = path.partition(".")
    if source != "from_content":
        return None
    location = document.locations.get(name)
    if not isinstance(location, Mapping) or "page" not in location or "box" not in location:
        return None
    return dict(location)


#: the word before a page number ("p. 1"; "стр. 1" in a Russian export)
PAGE_WORD = NP_("page number", "p.")


def where_text(location: Mapping[str, Any], language: str = "en") -> str:
    """ "p. 1 [0.166, 0.170, 0.274, 0.185]": the page in the file, and the box in
    fractions of its width and height from the top-left corner."""
    box = ", ".join(f"{float(v):.3f}" for v in location["box"])
    page = translation(language).pgettext("page number", PAGE_WORD)
    return f"{page} {location['page']} [{box}]"


#: where on a page a box stands, by thirds of the page: rows top to bottom, then
#: columns left to right
PLACES = (
    (NP_("place on a page", "top left"), NP_("place on a page", "top centre"),
     NP_("place on a page", "top right")),
    (NP_("place on a page", "middle left"), NP_("place on a page", "middle"),
     NP_("place on a page", "middle right")),
    (NP_("place on a page", "bottom left"), NP_("place on a page", "bottom centre"),
     NP_("place on a page", "bottom right")),
)  # fmt: skip


def _third(low: float, high: float) -> int:
    return min(2, max(0, int((low + high) / 2 * 3)))


def where_words(location: Mapping[str, Any], language: str = "en") -> str:
    """ "p. 2, top right": the page and the third of it the box's centre is in, for
    whoever looks for the value on paper (the box itself is in ``where_text``)."""
    x0, y0, x1, y1 = (float(v) for v in location["box"])
    words = translation(language)
    place = words.pgettext("place on a page", PLACES[_third(y0, y1)][_third(x0, x1)])
    page = words.pgettext("page number", PAGE_WORD)
    return f"{page} {location['page']}, {place}"


def matched_locations(
    document: Document, explanation: Iterable[Mapping[str, Any]]
) -> list[tuple[str, dict[str, Any]]]:
    """(field, location) of each content value the match compared, in rule order."""
    paths = [str(e.get("document_field") or "") for e in explanation] or list(DEFAULT_PATHS)
    out: list[tuple[str, dict[str, Any]]] = []
    for path in dict.fromkeys(paths):
        location = value_location(document, path)
        if location is not None:
            out.append((path.partition(".")[2], location))
    return out
