"""The window works on a 1024×640 screen, in English and in Russian: no tab, label or
button row makes it larger, the registry wizard and its dialogs open within the
screen, and the queue's state column shows whole state names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QHeaderView

from docbatch_gui._qt.queue.jobs_model import COL_STATE, JOB_STATE_LABELS
from docbatch_gui._qt.queue.retry_words import attempt_label
from docbatch_gui._qt.registry.wizard import RegistryWizard
from docbatch_gui._qt.tasks import drain
from docbatch_gui._qt.widgets import fit
from docbatch_gui.domain.attempts import MAX_ATTEMPTS
from docbatch_gui.domain.states import ACTIVE_STATES
from tests.gui.conftest import interface_in, until
from tests.gui.registry_helpers import add_documents, config_file, registry_xlsx

pytestmark = pytest.mark.asyncio(loop_factories=["qasync"])
SMALL = QSize(1024, 640)


@pytest.fixture(params=["en", "ru"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    with interface_in(request.param) as language:
        yield language


async def fill(window: Any, tmp_path: Path) -> None:
    """Every tab with what makes it widest: a searched registry with a match shown."""
    app = window.ctx.app
    add_documents(app)
    summary = app.registry.import_registry(
        registry_xlsx(tmp_path / "реестр.xlsx"), config_file(tmp_path / "config.json")
    )
    app.registry.search(summary.registry_id)
    tab = window.registry_tab
    await tab.refresh()
    await tab.open_results(summary.registry_id)
    assert tab.results.select_row(5)
    window.queue_tab.load(app.jobs())
    window.ctx.host.pause()  # the paused banner shows


async def test_the_window_fits_a_small_screen(language: str, window: Any, tmp_path: Path) -> None:
    """At 1024×640 every tab fits without scrolling; with the Log panel docked too, a
    tall tab scrolls instead of making the window taller than the screen."""
    await fill(window, tmp_path)
    window.resize(SMALL)
    await drain()
    assert window.size() == SMALL
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        await drain()
        QApplication.processEvents()
        area = window.tabs.widget(index)
        name = window.tabs.tabText(index)
        hint = window.tabs.page(index).minimumSizeHint()
        assert not area.horizontalScrollBar().isVisible(), f"{name}: {hint.width()} px wide"
        assert not area.verticalScrollBar().isVisible(), f"{name}: {hint.height()} px high"
    window.log_dock.show()
    await drain()
    assert window.minimumSizeHint().height() <= SMALL.height()
    window.resize(SMALL)
    await drain()
    assert window.size() == SMALL


def clipped_headers(view: QAbstractItemView) -> list[str]:
    """The column titles of ``view`` narrower than the header says they need (the text,
    its margins, a sort arrow): "Истекает чере" in a column sized for "Expires in"."""
    header = getattr(view, "horizontalHeader", lambda: None)()
    if not isinstance(header, QHeaderView) or not header.isVisible() or view.model() is None:
        return []
    out = []
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        label = view.model().headerData(section, Qt.Orientation.Horizontal)
        if not isinstance(label, str) or not label:
            continue
        # what the header itself needs for the label, its margins and a sort arrow
        needed = header.sectionSizeHint(section)
        if header.sectionSize(section) < needed:
            out.append(f"{label!r} in {header.sectionSize(section)} of {needed} px")
    return out


async def test_no_column_title_is_clipped_on_a_small_screen(
    language: str, window: Any, tmp_path: Path
) -> None:
    """Every table's titles are whole at 1024×640: the queue, Review, the batches, the
    registries, the results and the explanation of the selected match, the Log panel."""
    await fill(window, tmp_path)
    window.log_dock.show()
    window.resize(SMALL)
    await drain()
    found = {}
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        await drain()
        QApplication.processEvents()
        for view in window.findChildren(QAbstractItemView):
            if view.isVisible() and (clipped := clipped_headers(view)):
                where = f"{window.tabs.tabText(index)}: {type(view).__name__}"
                found[where] = clipped
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


async def test_the_state_column_shows_whole_names(language: str, window: Any) -> None:
    """Every state, and an active one at its last automatic attempt ("Формирование ·
    попытка 3 из 3" was cut at 1024 px), reads whole in the state column."""
    table = window.queue_tab.table
    metrics = table.fontMetrics()
    texts = list(JOB_STATE_LABELS.values())
    texts += [attempt_label(JOB_STATE_LABELS[state], MAX_ATTEMPTS) for state in ACTIVE_STATES]
    widest = max(metrics.horizontalAdvance(text) for text in texts)
    assert table.columnWidth(COL_STATE) >= widest + 16 + 16  # text, icon, margins


async def test_the_wizard_opens_within_a_small_screen(
    language: str, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fit, "available_size", lambda _widget=None: SMALL)
    wizard = RegistryWizard(window.ctx, window)
    try:
        assert wizard.width() <= SMALL.width() and wizard.height() <= SMALL.height()
        wizard.file_page.set_file(registry_xlsx(tmp_path / "r.xlsx"))
        wizard.load_template(config_file(tmp_path / "config.json"))
        for page_id in wizard.pageIds():
            hint = wizard.page(page_id).minimumSizeHint()
            assert hint.width() <= wizard.width() and hint.height() <= wizard.height()
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.deleteLater()
        await drain()


def in_scrolled_content(widget: Any) -> bool:
    """Inside a scroll area other than the tab pages' own wrappers (those must not
    scroll at this size: ``test_the_window_fits_a_small_screen``)."""
    from PySide6.QtWidgets import QAbstractScrollArea

    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not parent.objectName().endswith(
            "TabScroll"
        ):
            return True
        parent = parent.parentWidget()
    return False


def clipped_controls(window: Any) -> list[str]:
    """Visible buttons whose text does not fit them, or that lie outside the window,
    and tool bars that hide controls behind their "»" extension (Review's zoom bar)."""
    from PySide6.QtCore import QPoint, QRect
    from PySide6.QtWidgets import QAbstractButton, QToolBar

    inside = QRect(QPoint(0, 0), window.size())
    out = []
    for button in window.findChildren(QAbstractButton):
        if not button.isVisible() or not button.text() or button.inherits("QToolBarExtension"):
            continue
        text = button.text().replace("&", "")
        needed = button.fontMetrics().horizontalAdvance(text)
        if button.width() < needed:
            out.append(f"button {text!r}: {button.width()} of {needed} px")
        if in_scrolled_content(button):
            continue  # a scroll area's content: it is reached by scrolling
        corner = button.mapTo(window, QPoint(0, 0))
        if not inside.contains(QRect(corner, button.size())):
            out.append(f"button {text!r} outside the window at {corner.x()},{corner.y()}")
    for bar in window.findChildren(QToolBar):
        extension = next((c for c in bar.children() if c.inherits("QToolBarExtension")), None)
        if bar.isVisible() and extension is not None and extension.isVisible():
            out.append(f"tool bar {bar.objectName() or bar.windowTitle()!r} hides controls")
    return out


@pytest.mark.slow
async def test_no_button_or_zoom_control_is_clipped_on_a_small_screen(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640, with the Log panel closed and open, every tab's buttons show their
    whole text inside the window and no tool bar folds controls into "»"."""
    await fill(window, tmp_path)
    window.resize(SMALL)
    found = {}
    for log_open in (False, True):
        window.log_dock.setVisible(log_open)
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            await drain()
            QApplication.processEvents()
            if clipped := clipped_controls(window) + clipped_combos(window):
                found[f"{window.tabs.tabText(index)}, log {'open' if log_open else 'closed'}"] = (
                    clipped
                )
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


def clipped_combos(root: Any) -> list[str]:
    """Visible combo boxes under ``root`` whose chosen text does not fit their field:
    "nber (from the document)" in the registry wizard's rules, "amount ± toleranc"."""
    from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox

    out = []
    for box in root.findChildren(QComboBox):
        text = box.currentText()
        if not box.isVisible() or not text:
            continue
        option = QStyleOptionComboBox()
        box.initStyleOption(option)
        field = box.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box
        )
        room = field.width()
        if box.isEditable() and box.lineEdit() is not None:
            room = box.lineEdit().contentsRect().width() - 4  # QLineEdit's own text margins
        needed = box.fontMetrics().horizontalAdvance(text)
        if room < needed:
            out.append(f"combo {text!r}: {room} of {needed} px")
    return out


def off_screen_columns(view: QAbstractItemView) -> list[str]:
    """The shown columns of ``view`` that do not end inside its viewport: reached only
    by scrolling sideways (the queue's Documents and Cost on a small screen)."""
    header = view.horizontalHeader()  # type: ignore[attr-defined]
    room = view.viewport().width()
    out = []
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        end = header.sectionPosition(section) + header.sectionSize(section)
        if end > room:
            title = view.model().headerData(section, Qt.Orientation.Horizontal)
            out.append(f"{title!r} ends at {end} of {room} px")
    return out


@pytest.mark.parametrize("size", [SMALL, QSize(1280, 800)], ids=["1024", "1280"])
async def test_every_queue_column_is_in_sight(
    language: str, window: Any, tmp_path: Path, size: QSize
) -> None:
    """The queue's columns fit the table without scrolling sideways, Documents and Cost
    among them; the file name takes what is left, at least a readable width."""
    from docbatch_gui._qt.queue.jobs_model import COL_COST, COL_DOCUMENTS, COL_FILE

    await fill(window, tmp_path)
    window.resize(size)
    window.tabs.setCurrentWidget(window.queue_tab)
    await drain()
    QApplication.processEvents()
    table = window.queue_tab.table
    header = table.horizontalHeader()
    assert not header.isSectionHidden(COL_DOCUMENTS) and not header.isSectionHidden(COL_COST)
    assert not off_screen_columns(table), off_screen_columns(table)
    assert header.sectionSize(COL_FILE) >= 120
    assert not table.horizontalScrollBar().isVisible()


async def test_the_queue_header_menu_shows_a_hidden_column(language: str, window: Any) -> None:
    """The Error column starts hidden; the header's menu has a checkable entry for it
    (and for each other column but the file name and the state)."""
    from docbatch_gui._qt.queue.jobs_model import COL_ERROR

    tab = window.queue_tab
    header = tab.table.horizontalHeader()
    assert header.isSectionHidden(COL_ERROR)
    actions = {a.text(): a for a in tab.column_actions()}
    title = tab.model.headerData(COL_ERROR, Qt.Orientation.Horizontal)
    assert not actions[title].isChecked()
    actions[title].setChecked(True)
    assert not header.isSectionHidden(COL_ERROR)
    from docbatch_gui._qt.queue.jobs_model import COL_FILE, COL_STATE

    for fixed in (COL_FILE, COL_STATE):
        assert tab.model.headerData(fixed, Qt.Orientation.Horizontal) not in actions


async def test_review_keeps_confirm_in_sight_with_a_tall_form(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 a document with long review reasons and the counterparty panel
    shown: the form scrolls inside its own area, *Confirm* stays inside the window and
    the tab itself does not scroll (the wheel would move the page image away)."""
    from PySide6.QtCore import QPoint, QRect

    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    job = max(window.ctx.app.jobs(), key=lambda j: j.documents)
    await tab.open_job(job.id, 0)
    await until(lambda: tab.current is not None, what="the document shown")
    tab.reasons.setText("\n".join(f"reason {n}: a long line of words to wrap" for n in range(8)))
    tab.reasons.show()
    tab.counterparty_panel.show()
    tab.counterparty_panel.setMinimumHeight(200)
    await drain()
    QApplication.processEvents()
    area = window.tabs.currentWidget()
    assert not area.verticalScrollBar().isVisible(), "the Review tab scrolls as a whole"
    button = tab.confirm_button
    corner = button.mapTo(window, QPoint(0, 0))
    assert QRect(QPoint(0, 0), window.size()).contains(QRect(corner, button.size()))
    assert button.isVisible()


async def test_the_state_filter_shows_a_whole_state_name(language: str, window: Any) -> None:
    """The chosen state reads whole in the filter ("Требует проверки", not "Требует
    пров…") at 1024×640."""
    from docbatch_gui._qt.queue.jobs_model import state_label
    from docbatch_gui.domain.states import JobState

    window.resize(SMALL)
    box = window.queue_tab.state_filter
    box.setCurrentIndex(box.findText(state_label(JobState.NEEDS_REVIEW)))
    await drain()
    QApplication.processEvents()
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    widest = max(box.fontMetrics().horizontalAdvance(state_label(s)) for s in JobState)
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box
    )
    assert field.width() >= widest, f"{field.width()} px for {widest} px of text"


def cut_cells(view: QAbstractItemView) -> list[str]:
    """The shown cells of ``view`` whose text does not fit them: elided on one line
    ("Number (simil…") or wrapped into more lines than the row is high."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QStyle

    model = view.model()
    if model is None or not view.isVisible():
        return []
    metrics = view.fontMetrics()
    # the item's text margin each side (QCommonStyle: PM_FocusFrameHMargin + 1)
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    room = view.viewport().rect()
    out = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            text = model.data(index, Qt.ItemDataRole.DisplayRole)
            rect = view.visualRect(index)
            if not isinstance(text, str) or not text or not rect.intersects(room):
                continue
            width = rect.width() - margin
            if model.data(index, Qt.ItemDataRole.DecorationRole) is not None:
                width -= view.iconSize().width() if view.iconSize().isValid() else 16
                width -= 4
            if getattr(view, "wordWrap", lambda: False)():
                needed = metrics.boundingRect(
                    QRect(0, 0, max(width, 1), 10_000), Qt.TextFlag.TextWordWrap, text
                )
                if needed.height() > rect.height() or needed.width() > width:
                    out.append(f"{text!r}: {needed.height()} px high in {rect.height()}")
            elif metrics.horizontalAdvance(text) > width:
                out.append(f"{text!r}: {metrics.horizontalAdvance(text)} px in {width}")
    return out


def cut_labels(root: Any) -> list[str]:
    """The visible labels under ``root`` whose one line of text is wider than they are
    (a label that wraps or elides itself says so: word wrap or a tooltip with the text)."""
    from PySide6.QtWidgets import QLabel

    out = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or not text or label.wordWrap() or label.pixmap().width():
            continue
        if label.textFormat() == Qt.TextFormat.RichText or "<" in text or label.toolTip():
            continue  # rich text lays itself out; a tooltip holds the whole text
        needed = max(label.fontMetrics().horizontalAdvance(line) for line in text.split("\n"))
        if label.contentsRect().width() < needed:
            out.append(f"label {text!r}: {label.contentsRect().width()} of {needed} px")
    return out


async def test_the_registry_tab_shows_whole_texts_on_a_small_screen(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 the registry list's states ("Поиск выполнен"), the selected match's
    sub-rules ("Number (similar)", "Date (date ± 3 days)"), its notes and warnings read
    whole: wrapped, not cut."""
    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    await drain()
    QApplication.processEvents()
    detail = tab.results.detail
    assert detail.breakdown.rowCount() > 1, "a match with its sub-rules is shown"
    found = {
        "registries": cut_cells(tab.table),
        "sub-rules": cut_cells(detail.breakdown),
        "labels": cut_labels(tab),
    }
    found = {k: v for k, v in found.items() if v}
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


@pytest.mark.parametrize("pages", [[2], [11, 12, 13]], ids=["one", "three"])
async def test_review_shows_the_whole_page_position(
    language: str, window: Any, tmp_path: Path, pages: list[int]
) -> None:
    """At 1024×640 Review's page label beside the zoom buttons reads whole
    ("Страница 2 (1 из" was cut): a one-page document says only its page."""
    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    job = max(window.ctx.app.jobs(), key=lambda j: j.documents)
    await tab.open_job(job.id, 0)
    await until(lambda: tab.current is not None, what="the document shown")
    view = tab.page_view
    await until(lambda: view.pages == [tab.current.page_from], what="the page shown")
    await drain()
    view.pages = pages
    view.position = len(pages) - 1
    view._update_nav()
    QApplication.processEvents()
    text = view.where.text()
    assert str(pages[-1]) in text
    needed = view.where.fontMetrics().horizontalAdvance(text)
    shown = view.where.contentsRect().width()
    assert shown >= needed, f"{text!r}: {shown} of {needed} px"


async def test_every_batches_column_is_in_sight(language: str, window: Any, tmp_path: Path) -> None:
    """At 1024×640 the Batches tab does not scroll sideways (its Actual column was cut):
    the batch id takes what is left, the model and cache hits start hidden and the
    header's menu shows them."""
    from docbatch_gui._qt.batches.model import COL_ACTUAL, COL_BATCH, COL_CACHE, COL_MODEL
    from tests.batch_seed import seed

    await fill(window, tmp_path)
    seed(window.ctx.app.store)
    window.resize(SMALL)
    tab = window.batches_tab
    window.tabs.setCurrentWidget(tab)
    await tab.refresh(full=True)
    assert tab.stack.currentWidget() is tab.table
    await drain()
    QApplication.processEvents()
    table = tab.table
    header = table.horizontalHeader()
    assert not header.isSectionHidden(COL_ACTUAL)
    assert not off_screen_columns(table), off_screen_columns(table)
    assert not table.horizontalScrollBar().isVisible()
    assert not clipped_headers(table), clipped_headers(table)
    assert header.sectionSize(COL_BATCH) >= 100
    actions = {a.text(): a for a in tab.column_actions()}
    for column in (COL_MODEL, COL_CACHE):
        title = tab.model.headerData(column, Qt.Orientation.Horizontal)
        assert header.isSectionHidden(column) and not actions[title].isChecked()
    actions[tab.model.headerData(COL_MODEL, Qt.Orientation.Horizontal)].setChecked(True)
    assert not header.isSectionHidden(COL_MODEL)


async def test_the_registry_results_fit_a_small_screen_without_scrolling_sideways(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 the results table of a searched registry shows every shown column
    whole-titled inside the table (no sideways scroll bar): long values elide, the
    document's columns go first when they do not fit (the match pane beside it names
    and compares them; the header's menu shows them), and the buttons read whole."""
    from docbatch_gui._qt.registry.models import RES_FIXED, RES_SCORE

    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    await drain()
    QApplication.processEvents()
    table = tab.results.table
    header = table.horizontalHeader()
    assert table.isVisible() and table.model().rowCount() > 1
    assert not header.isSectionHidden(RES_SCORE)
    assert not header.isSectionHidden(RES_FIXED)  # the registry's first column
    shown_columns = [c for c in range(header.count()) if not header.isSectionHidden(c)]
    assert len(shown_columns) >= 5, "the row, score, warning and two columns more"
    assert not clipped_headers(table), clipped_headers(table)
    assert not off_screen_columns(table), off_screen_columns(table)
    assert not table.horizontalScrollBar().isVisible()
    assert not clipped_controls(window), clipped_controls(window)
    shown = {a.text(): a for a in tab.results.column_actions()}
    assert shown, "the header's menu offers the columns that may be hidden"
    hidden = [t for t, a in shown.items() if not a.isChecked()]
    assert hidden, "a secondary column starts hidden at 1024"
    shown[hidden[0]].setChecked(True)  # the operator brings one back
    await drain()
    QApplication.processEvents()
    assert not table.horizontalScrollBar().isVisible()
    assert not clipped_headers(table), clipped_headers(table)


async def test_the_wizard_rows_preview_of_an_accountant_sheet_fits_a_small_screen(
    language: str, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wizard's tables on the accountant's sheet at 1024×640: the rows preview (its
    signature line under "№ п/п" made that column 300 px wide and pushed the VAT
    column out of sight), the filtered rows, the rules (the "Required" column cut)."""
    from tests.accountant_sheet import accountant_xlsx

    monkeypatch.setattr(fit, "available_size", lambda _widget=None: SMALL)
    wizard = RegistryWizard(window.ctx, window)
    try:
        wizard.show()
        wizard.file_page.set_file(accountant_xlsx(tmp_path / "март.xlsx"))
        await until(lambda: wizard.preview is not None, what="the preview")
        wizard.next()
        await until(lambda: wizard.currentPage() is wizard.rows_page, what="the rows page")
        table = wizard.rows_page.table
        await until(lambda: table.model().rowCount() > 5, what="the rows")
        await drain()
        QApplication.processEvents()
        assert not off_screen_columns(table), off_screen_columns(table)
        assert not table.horizontalScrollBar().isVisible()
        wizard.next()  # the mapping
        wizard.next()  # the filters: the rows left out, with the sheet's columns
        await until(lambda: wizard.currentPage() is wizard.filters_page, what="filters")
        await drain()
        QApplication.processEvents()
        for page in (wizard.filters_page, wizard.rules_page):
            if page is wizard.rules_page:
                wizard.next()
                await until(lambda: wizard.currentPage() is wizard.rules_page, what="rules")
                await drain()
                QApplication.processEvents()
            table = page.table
            assert not off_screen_columns(table), off_screen_columns(table)
            assert not clipped_headers(table), clipped_headers(table)
            assert not clipped_combos(page), clipped_combos(page)
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.hide()
        wizard.deleteLater()
        await drain()


def goods_job(app: Any, english: bool) -> int:
    """A job in review whose document holds 30 lines of goods with a УПД's numbers."""
    from dataclasses import replace

    from docbatch_gui.domain.lines import Line
    from tests.gui.review_helpers import boxed_job
    from tests.lines_builders import goods

    job_id = boxed_job(app)
    (doc,) = app.store.list_documents(job_id)
    rows = goods(30, english=english)
    lines = [
        Line(r.no, r.name, r.code, r.unit, r.qty, r.price, r.net, r.vat_rate, r.vat, r.gross, 1)
        for r in rows
    ]
    app.store.update_document(replace(doc, lines=lines))
    return job_id


@pytest.mark.parametrize("log_open", [False, True], ids=["log-closed", "log-open"])
async def test_the_lines_that_matter_are_in_sight_on_a_small_screen(
    language: str, window: Any, log_open: bool
) -> None:
    """At 1024×640 Review's lines grid shows a line's number, name, quantity, price,
    net, VAT and total inside the grid without scrolling sideways (it scrolled past
    the sums): titles whole, numbers whole, the name elided; the code, unit, VAT rate
    and page start hidden when they do not fit and the header's menu shows them; four
    rows at least are in sight with the Log panel closed."""
    from tests.gui.review_helpers import open_review

    window.resize(QSize(1600, 1000))  # opened large, then the window shrinks: refitted
    window.log_dock.setVisible(log_open)
    tab = await open_review(window, goods_job(window.ctx.app, english=language == "en"))
    await drain()
    window.resize(SMALL)
    await drain()
    QApplication.processEvents()
    grid = tab.lines_grid
    view, header, keys = grid.view, grid.view.horizontalHeader(), grid.model.keys
    assert grid.model.rowCount() == 30
    for key in ("no", "name", "qty", "price", "net", "vat", "gross"):
        assert not header.isSectionHidden(keys.index(key)), f"{key} hidden"
    assert not off_screen_columns(view), off_screen_columns(view)
    assert not view.horizontalScrollBar().isVisible()
    assert not clipped_headers(view), clipped_headers(view)
    numeric = ("no", "qty", "price", "net", "vat", "gross")
    numbers = [c for c, key in enumerate(keys) if key in numeric]
    from PySide6.QtWidgets import QStyle

    metrics, cut = view.fontMetrics(), []
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    for column in numbers:
        texts = [grid.model.index(r, column).data() for r in range(30)]
        widest = max(metrics.horizontalAdvance(t) for t in texts)
        if header.sectionSize(column) < widest + margin:
            cut.append(f"{keys[column]}: {header.sectionSize(column)} px for {widest} px")
    assert not cut, cut
    assert header.sectionSize(keys.index("name")) >= 80
    rows = view.viewport().height() // view.verticalHeader().defaultSectionSize()
    if not log_open:  # its buttons in one bar beside the title: two bars left two rows
        assert rows >= 4, f"{rows} rows in sight"
    actions = {a.text(): a for a in grid.column_actions()}
    hidden = [t for t, a in actions.items() if not a.isChecked()]
    assert hidden, "a secondary column starts hidden at 1024"
    actions[hidden[0]].setChecked(True)
    assert not header.isSectionHidden(grid.model.titles.index(hidden[0]))


async def test_review_list_fits_its_pane_on_a_small_screen(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 Review's list of documents does not scroll sideways (its pages
    column was out of sight and the names cut with no way to read them): the pages
    are in sight, a name cut to fit elides and its tooltip holds it whole, and the
    list's title reads whole."""
    from PySide6.QtWidgets import QTreeWidgetItemIterator

    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.review_tab
    window.tabs.setCurrentWidget(tab)
    job = max(window.ctx.app.jobs(), key=lambda j: j.documents)
    await tab.open_job(job.id, 0)
    await until(lambda: tab.current is not None, what="the document shown")
    await drain()
    QApplication.processEvents()
    tree = tab.tree
    assert not tree.horizontalScrollBar().isVisible()
    header = tree.header()
    assert header.sectionPosition(1) + header.sectionSize(1) <= tree.viewport().width()
    metrics, cut = tree.fontMetrics(), []
    iterator = QTreeWidgetItemIterator(tree)
    while item := iterator.value():
        rect = tree.visualItemRect(item)
        room = header.sectionSize(0) - (rect.x() - header.sectionPosition(0))
        text = item.text(0)
        if metrics.horizontalAdvance(text) + 24 > room and text not in item.toolTip(0):
            cut.append(f"{text!r} cut in {room} px with no tooltip")
        iterator += 1
    assert not cut, cut
    assert not cut_labels(tab.list_title.parentWidget()), cut_labels(tab.list_title.parentWidget())


async def test_the_queue_detail_documents_fit_a_small_screen(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 the selected job's documents under its pages fit the detail pane:
    no sideways scrolling (Amount and Review were out of sight), every column whole
    but the type, which keeps a readable width and elides with its tooltip whole."""
    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.queue_tab
    window.tabs.setCurrentWidget(tab)
    tab.table.selectRow(0)
    tree = tab.detail.documents
    await until(lambda: tree.topLevelItemCount() > 1, what="the documents listed")
    await drain()
    QApplication.processEvents()
    assert tree.isVisible()
    assert not tree.horizontalScrollBar().isVisible()
    header = tree.header()
    last = header.count() - 1
    assert header.sectionPosition(last) + header.sectionSize(last) <= tree.viewport().width()
    for column in range(1, header.count()):
        label = tree.headerItem().text(column)
        assert header.sectionSize(column) >= tree.fontMetrics().horizontalAdvance(label), label
    assert header.sectionSize(0) >= 70, f"the type in {header.sectionSize(0)} px"
    item = tree.topLevelItem(0)
    assert item.toolTip(0).startswith(item.text(0))


async def test_the_queue_counts_read_whole_on_a_small_screen(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640 with the processing paused (Continue is wider than Pause) the
    queue's counts read whole on their two lines ("проверить: 0 · ошиб…" was cut),
    and so does the search field's hint beside them."""
    await fill(window, tmp_path)
    window.resize(SMALL)
    window.tabs.setCurrentWidget(window.queue_tab)
    await drain()
    QApplication.processEvents()
    counts = window.queue_tab.counts
    width = counts.contentsRect().width()
    metrics = counts.fontMetrics()
    cut = [line for line in counts.lines(width) if metrics.horizontalAdvance(line) > width]
    assert not cut, f"{cut} in {width} px"
    search = window.queue_tab.search  # it gives way, its hint still whole ("Поиск по им…")
    room = search.contentsRect().width() - 8 - 20  # the text margins, the clear button
    needed = search.fontMetrics().horizontalAdvance(search.placeholderText())
    assert needed <= room, f"{search.placeholderText()!r}: {needed} px in {room}"


async def test_the_registry_results_show_dates_and_amounts_whole(
    language: str, window: Any, tmp_path: Path
) -> None:
    """At 1024×640, with the Log panel closed and open, the results' short values (a
    date, an amount, a number) are never elided ("01.03.20…"): their column shows
    them whole or is hidden, the header's menu showing it."""
    import re

    await fill(window, tmp_path)
    window.resize(SMALL)
    tab = window.registry_tab
    window.tabs.setCurrentWidget(tab)
    found = {}
    for log_open in (False, True):
        window.log_dock.setVisible(log_open)
        await drain()
        QApplication.processEvents()
        table = tab.results.table
        short = [c for c in cut_cells(table) if re.match(r"^'[\d.,\- ]+'", c)]
        if short:
            found[f"log {'open' if log_open else 'closed'}"] = short
        assert not clipped_headers(table), clipped_headers(table)
    assert not found, found


async def test_the_bundled_registry_results_keep_the_date_at_1024(window: Any) -> None:
    """The bundled registry sample's results at 1024×640: a column dropped to fit comes
    back where a later drop left it room (the date was hidden for 2 pixels the wide
    file column needed, which went anyway)."""
    from docbatch_gui.resources import resources_dir
    from tests.gui.registry_helpers import add_documents

    app = window.ctx.app
    add_documents(app)
    sample = resources_dir() / "registry_sample"
    summary = app.registry.import_registry(sample / "registry.xlsx", sample / "config.json")
    app.registry.search(summary.registry_id)
    tab = window.registry_tab
    await tab.refresh()
    await tab.open_results(summary.registry_id)
    window.resize(SMALL)
    window.tabs.setCurrentWidget(tab)
    await drain()
    QApplication.processEvents()
    table = tab.results.table
    header, model = table.horizontalHeader(), table.model()
    titles = {model.headerData(c, Qt.Orientation.Horizontal): c for c in range(header.count())}
    assert not header.isSectionHidden(titles["Дата"])
    assert not off_screen_columns(table), off_screen_columns(table)
    assert not clipped_headers(table), clipped_headers(table)


async def test_the_wizard_rules_fill_a_large_wizard(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a 1600×1000 screen the rules' columns take the table's whole width (they
    stopped two thirds across, sized for the wizard before it opened)."""
    monkeypatch.setattr(fit, "available_size", lambda _widget=None: QSize(1600, 1000))
    wizard = RegistryWizard(window.ctx, window)
    try:
        wizard.show()
        wizard.file_page.set_file(registry_xlsx(tmp_path / "r.xlsx"))
        wizard.load_template(config_file(tmp_path / "config.json"))
        while wizard.currentPage() is not wizard.rules_page:
            wizard.next()
        await drain()
        QApplication.processEvents()
        table = wizard.rules_page.table
        header = table.horizontalHeader()
        last = header.count() - 1
        end = header.sectionPosition(last) + header.sectionSize(last)
        assert end >= table.viewport().width() - 2, f"{end} of {table.viewport().width()} px"
    finally:
        wizard.runner.stop()
        wizard.rules_page.estimator.stop()
        wizard.hide()
        wizard.deleteLater()
        await drain()
