"""One gettext catalogue for every word DocBatch writes: the core's messages, the
command line and the window alike.

English is the source language (the ``msgid``); each other language has a ``.po`` in
``docbatch_gui/resources/locale/<lang>/LC_MESSAGES/docbatch.po``, compiled to ``.mo``
at build time and, when the ``.mo`` is missing or older, at first use
(:mod:`docbatch_gui.i18n.catalogue`). ``scripts/i18n.py`` is the translator's
workflow (``docs/translating.md``).

Call sites use the usual names so ``pybabel extract`` finds them::

    from docbatch_gui.i18n import _, N_, NN_, NP_, ngettext, pgettext

(extracted with the keywords ``N_``, ``NN_:1,2`` and ``NP_:1c,2`` besides gettext's
own). ``N_``/``NP_`` mark a template kept in a table and worded later; ``NN_`` marks
one worded by a number (a :class:`Plural`: singular, plural and the parameter that
counts), so "1 file", "2 files" and the three Russian forms come from ``ngettext``.

``_``/``ngettext``/``pgettext`` word in the current language (:func:`set_language`);
:func:`translation` gives one language's catalogue, for a text worded for a reader
other than the current one (an export in the registry's language).
"""

from __future__ import annotations

from docbatch_gui.i18n.catalogue import (
    LANGUAGES,
    N_,
    NN_,
    NP_,
    Plural,
    current_language,
    gettext,
    ngettext,
    npgettext,
    pgettext,
    set_language,
    translation,
)

_ = gettext

__all__ = [
    "LANGUAGES",
    "NN_",
    "NP_",
    "N_",
    "Plural",
    "_",
    "current_language",
    "gettext",
    "ngettext",
    "npgettext",
    "pgettext",
    "set_language",
    "translation",
]
