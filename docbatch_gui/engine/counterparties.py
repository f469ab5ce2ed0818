"""The counterparty memory at work: checking extracted documents against their
seller's confirmed ones, and showing Claude a few of those with the pages.

The rules are pure (``checks.counterparty``); this module only reads the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from docbatch_gui.checks.counterparty import (
    MIN_CONFIRMED,
    SELLER_INN,
    choose_seller,
    clean_inn,
    inns_in,
    sellers_read,
    with_priors,
)
from docbatch_gui.config.profile import Profile
from docbatch_gui.domain.counterparty import Counterparty
from docbatch_gui.domain.models import Document, Job, Page
from docbatch_gui.llm.prompt import counterparty_examples
from docbatch_gui.settings.model import Settings
from docbatch_gui.storage.store import Store


def with_counterparty_priors(
    store: Store, documents: Sequence[Document], *, min_confirmed: int = MIN_CONFIRMED
) -> list[Document]:
    """Each document checked against what confirmed documents of its seller showed
    (a usual value needs ``min_confirmed`` agreeing confirmations)."""
    known: dict[str, Counterparty | None] = {}
    checked = []
    for document in documents:
        inn = clean_inn(document.fields.get(SELLER_INN))
        if inn is not None and inn not in known:
            known[inn] = store.counterparty(inn)
        checked.append(
            with_priors(document, known.get(inn) if inn else None, min_confirmed=min_confirmed)
        )
    return checked


def request_examples(
    store: Store,
    profile: Profile,
    job: Job,
    group: Sequence[Page],
    settings: Settings | None = None,
) -> str:
    """The text block of confirmed examples for one request group, or "" when the
    profile asks for none or no remembered seller shows in the group's text.

    The store is asked only about INNs in the text, and the offline extractor runs
    only when one of them is remembered: most groups cost a regular expression.
    Documents of the same job are left out: a reprocess must read the pages, not
    copy what was confirmed for them. A seller with fewer confirmed documents than
    ``COUNTERPARTY_MIN_CONFIRMED`` shows none: one confirmation, perhaps a wrong or
    hostile one, does not steer the model.
    """
    least = settings.counterparty_min_confirmed if settings is not None else MIN_CONFIRMED
    count = profile.counterparty_examples
    if count <= 0:
        return ""
    pages = [(p.page_no, p.text) for p in group]
    anywhere = inns_in("\n".join(text for _, text in pages)) + inns_in(job.file_name)
    found = {inn: store.counterparty(inn) for inn in dict.fromkeys(anywhere)}
    remembered = {inn: c for inn, c in found.items() if c is not None and c.confirmed >= least}
    if not remembered:
        return ""
    seller = choose_seller(sellers_read(job.file_name, pages, profile), anywhere, remembered)
    if seller is None:
        return ""
    counterparty = remembered[seller]
    examples = [d for d in counterparty.recent if d.job_id != job.id][:count]
    return counterparty_examples(seller, counterparty.name, examples)
