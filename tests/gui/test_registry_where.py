"""The explanation pane shows where each matched value stands on its page: the page
and box in the breakdown, and a frame around it on the thumbnail."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor

from tests.gui.conftest import until
from tests.gui.registry_helpers import add_documents, config_file, registry_xlsx

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])

#: where _page_image writes the number ("СЧЁТ № …") and the date, in fractions
NUMBER_BOX = [0.083, 0.073, 0.6, 0.12]
DATE_BOX = [0.083, 0.134, 0.4, 0.16]


def _framed(image: Any) -> bool:
    """Some pixel of the thumbnail is the frame's red."""
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            colour = QColor(image.pixel(x, y))
            if colour.red() > 180 and colour.green() < 90 and colour.blue() < 90:
                return True
    return False


async def test_the_breakdown_and_the_thumbnail_show_where_values_stand(
    window: Any, tmp_path: Path
) -> None:
    app = window.ctx.app
    add_documents(app)
    (job,) = app.store.list_jobs()
    located = [
        replace(
            d,
            locations={
                "number": {"page": d.page_from, "box": NUMBER_BOX},
                "date": {"page": d.page_from, "box": DATE_BOX},
            },
        )
        for d in app.store.list_documents(job.id)
    ]
    app.store.replace_documents(job.id, located)
    summary = app.registry.import_registry(
        registry_xlsx(tmp_path / "реестр.xlsx"), config_file(tmp_path / "config.json")
    )
    app.registry.search(summary.registry_id)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh()
    await tab.open_results(summary.registry_id)
    results = tab.results
    assert results.select_row(4)
    detail = results.detail
    await until(lambda: not detail.thumb.pixmap().isNull(), what="thumbnail")
    cells = {  # "Number (similar number) *" → "number"
        detail.breakdown.item(r, 0).text().split(" ")[0].lower(): detail.breakdown.item(r, 6)
        for r in range(detail.breakdown.rowCount())
    }
    # the page in the cell, the box (fractions of the page) in its tooltip
    assert cells["number"].text() == "p. 1"
    assert cells["number"].toolTip() == "p. 1 [0.083, 0.073, 0.600, 0.120]"
    assert cells["date"].toolTip() == "p. 1 [0.083, 0.134, 0.400, 0.160]"
    assert cells["amount"].text() == ""  # not located: nothing to show
    assert _framed(detail.thumb.pixmap().toImage())
