"""The engine's job events in the Log panel, in the interface language.

The log file is English for support; the operator reads what happened to each job
from the news the bridge already carries (``_qt.bridge.EngineBridge``): a job that
changed state, with its error when it ended badly, and the engine paused, resumed
or stopped. Each becomes one line of the panel, worded when it is shown here; the
English log records come beside them, seen with the panel's *Technical* filter.
"""

from __future__ import annotations

import logging
import time

from PySide6.QtCore import QObject

from docbatch_gui._qt.bridge import EngineBridge
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.widgets.log_panel import LogLine, LogPanel
from docbatch_gui.app.host import EngineState
from docbatch_gui.domain.models import Job
from docbatch_gui.domain.state_names import state_name
from docbatch_gui.domain.states import JobState
from docbatch_gui.domain.text import printable
from docbatch_gui.engine.job_log import ENDED_BADLY
from docbatch_gui.i18n import _, pgettext
from docbatch_gui.settings.secrets import scrub_secrets

#: the source an event line names (its area reads "Processing")
SOURCE = "docbatch_gui.engine"


class JobEvents(QObject):
    """Posts a line to ``panel`` for each job state change and engine state the
    bridge reports; a job's progress alone (same state) says nothing new."""

    def __init__(self, bridge: EngineBridge, panel: LogPanel) -> None:
        super().__init__(panel)  # goes away with the panel
        self.panel = panel
        self._states: dict[int, JobState] = {}
        self._engine: str | None = None
        self._engine_names = {
            EngineState.RUNNING: pgettext("engine state", "running"),
            EngineState.PAUSED: pgettext("engine state", "paused"),
            EngineState.DRAINING: _("finishing the running jobs"),
            EngineState.STOPPED: pgettext("engine state", "stopped"),
        }
        bridge.jobs_changed.connect(self.jobs_changed)
        bridge.engine_state.connect(self.engine_state)
        bridge.halted.connect(self.halted)

    def jobs_changed(self, jobs: list[Job]) -> None:
        for job in jobs:
            if self._states.get(job.id) is job.state:
                continue
            self._states[job.id] = job.state
            level = logging.WARNING if job.state in ENDED_BADLY else logging.INFO
            self._post(level, self.job_text(job))

    def job_text(self, job: Job) -> str:
        language = interface_language()
        state = state_name(job.state, language)
        name = printable(job.file_name)
        error = job.error_words(language) if job.state in ENDED_BADLY else None
        if error:
            return _("Job {job} ({file_name}): {state}: {error}").format(
                job=job.id, file_name=name, state=state, error=error
            )
        return _("Job {job} ({file_name}): {state}").format(job=job.id, file_name=name, state=state)

    def engine_state(self, value: str) -> None:
        if value == self._engine:
            return
        self._engine = value
        try:
            words = self._engine_names.get(EngineState(value))
        except ValueError:  # a state this window does not know: the bridge's own word
            words = value
        if words is not None:  # halted: said with its reason by ``halted``
            self._post(logging.INFO, _("Processing: {state}").format(state=words))

    def halted(self, message: str) -> None:
        """A critical error stopped the queue (``message`` is worded by the bridge)."""
        self._post(logging.ERROR, _("The queue stopped: {reason}").format(reason=message))

    def _post(self, level: int, text: str) -> None:
        """One event line; a secret an error quotes never reaches the panel or a copy."""
        text = printable(scrub_secrets(text), lines=True)
        self.panel.post(
            LogLine(time.time(), level, logging.getLevelName(level), SOURCE, text, technical=False)
        )
