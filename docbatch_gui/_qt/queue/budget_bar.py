"""The Queue tab's budget line: what the queued files will cost, and a run the budget
caps hold, with the two ways on (raise the cap, or run anyway).

Everything is read off the GUI thread. The forecast is taken again shortly after the
queue changes (files counted once, then cheap); the hold is read every
``HOLD_POLL_MS``, since the engine decides it in its own thread without a job
changing.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.dialogs import ask
from docbatch_gui._qt.widgets.layout import filled
from docbatch_gui.app.budget import BudgetStatus
from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.domain.state_names import mode_name
from docbatch_gui.engine.budget import Forecast, Hold, usd_text
from docbatch_gui.i18n import _, ngettext, npgettext
from docbatch_gui.settings.saving import save_settings

FORECAST_DELAY_MS = 400
HOLD_POLL_MS = 2000
log = logging.getLogger(__name__)

HOLD_STYLE = "QFrame#budget_hold { background: #fde7e9; border-radius: 4px; }"


def suggested_cap(hold: Hold) -> float:
    """A cap that lets the held run through, rounded up to the next dollar."""
    needed = hold.usd if hold.code == "budget_run_cap" else hold.spent_usd + hold.usd
    return float(max(1, math.ceil(needed + 0.005)))


class BudgetBar(QWidget):
    #: the settings in force after the operator raised a cap here
    settings_saved = Signal(object)

    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.hold: Hold | None = None
        self._forecasting: asyncio.Task[None] | None = None
        self._again = False

        self.forecast_label = QLabel()
        self.forecast_label.setObjectName("queue_forecast")
        self.forecast_label.setTextFormat(Qt.TextFormat.RichText)
        self.forecast_label.setWordWrap(True)
        self.forecast_label.hide()

        self.hold_box = QFrame()
        self.hold_box.setObjectName("budget_hold")
        self.hold_box.setStyleSheet(HOLD_STYLE)
        self.hold_text = QLabel()
        self.hold_text.setWordWrap(True)
        self.hold_text.setStyleSheet("color: #7a0010; padding: 6px 10px;")
        self.raise_button = QPushButton(_("Raise the cap…"))
        self.raise_button.clicked.connect(lambda: spawn(self.raise_cap(), self._failed))
        self.run_anyway_button = QPushButton(_("Run anyway"))
        self.run_anyway_button.setToolTip(
            _("Send this run as it is, whatever it costs; the caps stay as they are")
        )
        self.run_anyway_button.clicked.connect(lambda: spawn(self.run_anyway(), self._failed))
        buttons = (self.raise_button, self.run_anyway_button)
        filled(QHBoxLayout(self.hold_box), (self.hold_text, 1), *buttons, margins=(0, 0, 6, 0))
        self.hold_box.hide()

        filled(QVBoxLayout(self), self.forecast_label, self.hold_box, margins=0)

        self._delay = QTimer(self)
        self._delay.setSingleShot(True)
        self._delay.setInterval(FORECAST_DELAY_MS)
        self._delay.timeout.connect(lambda: self._start(self.refresh_forecast))
        self._hold_timer = QTimer(self)
        self._hold_timer.setInterval(HOLD_POLL_MS)
        self._hold_timer.timeout.connect(lambda: self._start(self.refresh_hold))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._hold_timer.start()
        self._start(self.refresh_hold)

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self._hold_timer.stop()

    @staticmethod
    def _start(make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # before the qasync loop runs: the next change comes back
            return
        spawn(make())

    # -- the forecast ----------------------------------------------------------------------

    @property
    def forecast_shown(self) -> bool:
        return not self.forecast_label.isHidden()

    def schedule(self) -> None:
        """The queue changed: forecast again once it settles."""
        self._delay.start()

    async def refresh_forecast(self) -> None:
        """Forecast the queued files off the GUI thread; one reading at a time."""
        if self._forecasting is not None and not self._forecasting.done():
            self._again = True
            return
        self._forecasting = asyncio.ensure_future(self._forecast())
        await asyncio.shield(self._forecasting)
        if self._again:
            self._again = False
            await self.refresh_forecast()

    async def _forecast(self) -> None:
        try:
            forecast = await self.ctx.bridge.call(self.ctx.app.forecast)
        except DocBatchError as exc:  # a busy store: the next change forecasts again
            log.info("budget: no forecast: %s", exc)
            return
        self.show_forecast(forecast)

    def show_forecast(self, forecast: Forecast) -> None:
        if not forecast.jobs:
            self.forecast_label.hide()
            return
        self.forecast_label.setText(
            _(
                "Forecast for {files}, {pages}, {model} ({modes}): <b>${usd}</b> "
                "(${low} to ${high})"
            ).format(
                files=npgettext(
                    "forecast for", "{count} queued file", "{count} queued files", forecast.jobs
                ).format(count=forecast.jobs),
                pages=npgettext(
                    "forecast for", "{count} page", "{count} pages", forecast.pages
                ).format(count=forecast.pages),
                model=forecast.model,
                modes=", ".join(mode_name(m, interface_language()) for m in forecast.modes),
                usd=usd_text(forecast.usd),
                low=usd_text(forecast.low_usd),
                high=usd_text(forecast.high_usd),
            )
        )
        self.forecast_label.setToolTip(
            _(
                "Before anything is sent: pages × request plan × model × mode × prompt "
                "cache, priced from the model catalogue. The range runs from short answers "
                "with a cache hit on every request to long answers with a cache miss on "
                "every request; pages not rendered yet are counted from the files."
            )
        )
        self.forecast_label.show()

    # -- the hold ----------------------------------------------------------------------------

    async def refresh_hold(self) -> None:
        try:
            status = await self.ctx.bridge.call(self.ctx.app.budget)
        except DocBatchError as exc:  # a busy store, or the window closing: next poll
            log.info("budget: could not read the hold: %s", exc)
            return
        self.show_budget(status)

    def show_budget(self, status: BudgetStatus) -> None:
        self.hold = status.hold
        if status.hold is None:
            self.hold_box.hide()
            return
        self.hold_text.setText(status.hold.words(interface_language()))
        self.hold_box.show()

    async def run_anyway(self) -> None:
        lifted = await self.ctx.bridge.call(self.ctx.app.allow_over_budget)
        self.hold_box.hide()
        if lifted is not None:
            self.ctx.notifier.notify(
                ngettext(
                    "The held run goes ahead: {count} file, forecast ${usd}.",
                    "The held run goes ahead: {count} files, forecast ${usd}.",
                    len(lifted.jobs),
                ).format(count=len(lifted.jobs), usd=usd_text(lifted.usd)),
                "info",
            )

    async def raise_cap(self, value: float | None = None) -> None:
        """Save a higher cap (asked for when ``value`` is None); the engine takes the
        new settings over and lets the run through when it fits."""
        hold = self.hold
        if hold is None:
            return
        name = "budget_run_usd" if hold.code == "budget_run_cap" else "budget_month_usd"
        if value is None:
            dialog = QInputDialog(self)
            dialog.setWindowTitle(_("Raise the budget cap"))
            dialog.setLabelText(
                _("Budget per run, USD:")
                if name == "budget_run_usd"
                else _("Budget per month, USD:")
            )
            dialog.setInputMode(QInputDialog.InputMode.DoubleInput)
            dialog.setDoubleDecimals(2)
            dialog.setDoubleRange(0, 10_000_000)
            dialog.setDoubleValue(suggested_cap(hold))
            if not await ask(dialog):
                return
            value = dialog.doubleValue()
        chosen = float(value)
        saved = await asyncio.to_thread(lambda: save_settings({name: chosen}))
        if getattr(saved, name) != chosen:  # an environment variable sets it
            self.ctx.notifier.notify(
                _(
                    "The cap is set by the environment variable {variable}: change it there, or "
                    "run anyway."
                ).format(variable=name.upper()),
                "error",
            )
            return
        # the settings in force with this one value changed (the file holds the rest)
        settings = self.ctx.app.settings.model_copy(update={name: chosen})
        self.hold_box.hide()
        self.ctx.notifier.notify(
            _("Budget cap raised to ${usd}; the held run is checked again.").format(
                usd=usd_text(chosen)
            ),
            "success",
        )
        self.settings_saved.emit(settings)

    def _failed(self, error: BaseException) -> None:
        self.ctx.notifier.notify(_("Budget: {error}").format(error=error), "error")
