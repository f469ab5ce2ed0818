"""Writing an output file so that a reader never sees half of it: the helper is
``storage.atomic``'s, shared with the registry export."""

from __future__ import annotations

from docbatch_gui.storage.atomic import atomic_output

__all__ = ["atomic_output"]
