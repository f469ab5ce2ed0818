"""The text a text-layer page is sent to Claude with, worked out where its words are.

A page whose own text layer holds a table of goods goes laid out as printed
(``tables.layout_text``), its columns and rows kept; any other page goes as its text.
Finding the table (``tables.read_table``) was the largest part of building a batch
job's requests in the engine's process; the render child, which made the page's
words, now works it out beside the text layer's verdict, from the words blob it sends
(the bytes the engine would read back), and the engine keeps the answer by the blob's
key (``engine.extraction``). ``table_key`` tells whether the child judged with the
line fields the engine has: a profile edited between the two is judged again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from docbatch_gui.config.profile import Profile
from docbatch_gui.pipeline.tables import layout_text, read_table
from docbatch_gui.pipeline.words import Word

#: ``table_key`` of the profiles seen, by identity (a process reads few profiles)
_KEYS: dict[int, tuple[Profile, str]] = {}


def table_key(profile: Profile) -> str:
    """What a page's laid-out text depends on in ``profile`` (its line fields:
    ``read_table`` finds a header by them alone), as a digest."""
    kept = _KEYS.get(id(profile))
    if kept is None or kept[0] is not profile:
        if len(_KEYS) > 16:
            _KEYS.clear()
        digest = hashlib.sha256(repr(profile.line_fields).encode()).hexdigest()
        kept = _KEYS[id(profile)] = (profile, digest)
    return kept[1]


def table_layout(words: Sequence[Word], page_no: int, profile: Profile) -> str | None:
    """The page laid out as printed when it holds a table of goods; None when it
    holds none (it goes as its text)."""
    if not profile.line_fields or not read_table([(page_no, words)], profile).header_pages:
        return None
    return layout_text(words)
