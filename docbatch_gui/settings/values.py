"""Checks of single setting values the types alone do not make: an address that must
be an http(s) URL with a host, a folder that must not be a file.

Each returns the problem as a coded message (English text, code kept), or None. The
settings model raises them as validation errors, so the Settings tab marks the field
red as it is typed and refuses Save, and a start with such a value stops with one
sentence naming the variable. What only a connection can tell (is anything listening
there) is ``docbatch doctor``'s to check.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from docbatch_gui.domain.messages import Message, coded


def http_url_problem(value: str) -> Message | None:
    """Why ``value`` is not an http:// or https:// address with a host, or None."""
    text = value.strip()
    try:
        parts = urlsplit(text)
        _ = parts.port  # a port that is not a number raises here
    except ValueError:
        return coded("setting_url_not_http")
    if parts.scheme.lower() not in ("http", "https"):
        return coded("setting_url_not_http")
    if any(c.isspace() for c in text):
        return coded("setting_url_spaces")
    if not parts.hostname:
        return coded("setting_url_no_host")
    return None


def folder_problem(path: Path) -> Message | None:
    """Why ``path`` cannot be used as a folder (it is an existing file), or None; a
    folder that does not exist yet is fine (it is made when needed)."""
    expanded = path.expanduser()
    if expanded.is_file():
        return coded("setting_folder_is_file", path=str(expanded))
    return None
