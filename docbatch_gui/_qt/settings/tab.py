"""The Settings tab: every field of the settings model, validated as typed.

Saving writes the settings file and the keyring (``settings.saving.save_settings``)
and emits ``saved``; the window hands them to the engine host, which restarts the
engine on them once the running jobs finished (``EngineHost.restart``). Connection
tests run on the loop through ``spawn`` and their blocking clients in threads, so the
window never freezes on a dead host.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from docbatch_gui._qt.context import GuiContext
from docbatch_gui._qt.i18n import LANGUAGE_KEY, LANGUAGES
from docbatch_gui._qt.language import interface_language
from docbatch_gui._qt.settings.checks import ocr_languages_error
from docbatch_gui._qt.settings.connection_test import (
    FAIL_STYLE,
    OK_STYLE,
    ConnectionTest,
    Probe,
)
from docbatch_gui._qt.settings.fields import NOTE_STYLE, FieldEditor
from docbatch_gui._qt.tasks import spawn
from docbatch_gui._qt.widgets.layout import STRETCH, filled
from docbatch_gui.diagnostics import connections
from docbatch_gui.domain.messages import Message
from docbatch_gui.domain.states import ProcessingMode
from docbatch_gui.i18n import _, ngettext
from docbatch_gui.settings.checks import disk_problem
from docbatch_gui.settings.choices import combination_problem
from docbatch_gui.settings.file import settings_path
from docbatch_gui.settings.keystore import secret_home
from docbatch_gui.settings.loading import load_settings
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.saving import environment_overrides, save_settings
from docbatch_gui.settings.sections import SECTIONS

LABEL_WIDTH = 220


def field_problem(error: Any) -> str:
    """A field's validation error in the interface language: a value check of the
    model's (an address, a folder) is a coded message; pydantic's own are English."""
    raised = (error.get("ctx") or {}).get("error")
    said = raised.args[0] if isinstance(raised, ValueError) and raised.args else None
    if isinstance(said, Message):
        return said.words(interface_language())
    return str(error["msg"]).removeprefix("Value error, ")


#: a section's connection tests, (name, probe), shown under its fields
PROBES: dict[str, list[tuple[str, Probe]]] = {
    "ocr": [("ocr", connections.test_ocr)],
    "claude": [("claude", connections.test_anthropic)],
    "storage": [("mongodb", connections.test_mongodb), ("minio", connections.test_minio)],
    "team": [("redis", connections.test_redis), ("celery", connections.test_celery_broker)],
    "mail": [("mail", connections.test_mail)],
}
#: one group per section of the settings, in their order: (section, fields, tests)
GROUPS: list[tuple[str, list[str], list[tuple[str, Probe]]]] = [
    (section.SECTION, list(section.model_fields), PROBES.get(section.SECTION, []))
    for section in SECTIONS
]


class SettingsTab(QWidget):
    #: the new Settings, after a save
    saved = Signal(object)

    def __init__(self, ctx: GuiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.current: Settings = ctx.app.settings
        self.environment = environment_overrides()
        self._editors: dict[str, FieldEditor] = {}
        self._tests: dict[str, ConnectionTest] = {}
        self._baseline: dict[str, Any] = {}
        self._built = False
        #: no Anthropic key here: sync and batch jobs are read offline (the window says)
        self._offline = False
        self.page_scroll = QScrollArea()
        self.page_scroll.setWidgetResizable(True)

        self.status = QLabel()
        self.status.setStyleSheet(FAIL_STYLE)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.setToolTip(_("Put every field back to the saved value"))
        self.cancel_button.clicked.connect(self.revert)
        self.cancel_button.setEnabled(False)
        self.save_button = QPushButton(_("Save"))
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(lambda: spawn(self.save(), self._save_failed))
        self.save_button.setEnabled(False)
        buttons = filled(QHBoxLayout(), (self.status, 1), self.cancel_button, self.save_button)
        filled(QVBoxLayout(self), (self.page_scroll, 1), buttons)

    # -- building --------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        self.ensure_built()
        super().showEvent(event)

    @property
    def editors(self) -> dict[str, FieldEditor]:
        self.ensure_built()
        return self._editors

    @property
    def tests(self) -> dict[str, ConnectionTest]:
        self.ensure_built()
        return self._tests

    @property
    def language(self) -> QComboBox:
        self.ensure_built()
        return self._language

    def ensure_built(self) -> None:
        """The page's fields (about seventy editors) are built the first time the page
        is shown or asked for: a window whose Settings stay closed starts faster."""
        if self._built:
            return
        self._built = True
        content = QWidget()
        column = QVBoxLayout(content)
        column.setSpacing(12)
        intro = QLabel(
            _(
                "Saved to {settings_path}. Environment variables take precedence and are shown "
                "read-only. Hover over a field to see its variable and allowed values."
            ).format(settings_path=settings_path())
            # where keys, passwords and tokens go: said once here, not under each of them
            + " "
            + _("Keys, passwords and tokens go to {secret_home}.").format(
                secret_home=secret_home().words(interface_language())
            )
        )
        intro.setWordWrap(True)
        intro.setStyleSheet(NOTE_STYLE)
        groups = [self._group(group, names, probes) for group, names, probes in GROUPS]
        filled(column, intro, *groups, self._interface_group(), STRETCH)
        self.page_scroll.setWidget(content)
        self.revert()

    def focus_field(self, name: str) -> None:
        editor = self.editors[name]
        self.page_scroll.ensureWidgetVisible(editor)
        editor.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def _titles(self) -> dict[str, str]:
        return {
            "processing": _("Processing"),
            "ocr": _("OCR"),
            "claude": _("Claude"),
            "batch": _("Message Batches"),
            "budget": _("Budget"),
            "review": _("Review"),
            "registry": _("Registry import"),
            "storage": _("Storage"),
            "mongodb": _("MongoDB"),
            "minio": _("MinIO"),
            "redis": _("Redis"),
            "celery": _("Celery"),
            "team": _("Team execution"),
            "intake": _("Documents in"),
            "mail": _("Mail"),
            "outbound": _("Documents out"),
        }

    def _labels(self) -> dict[str, str]:
        return {
            "data_dir": _("Data folder"),
            "processing_mode": _("Processing mode"),
            "ocr_workers": _("OCR workers"),
            "batch_size": _("Batch size"),
            "poll_interval": _("Poll interval, s"),
            "result_workers": _("Result workers"),
            "max_concurrent_mb": _("Memory for running jobs, MB"),
            "max_concurrency": _("Concurrent requests"),
            "group_size": _("Pages per request"),
            "job_timeout": _("Job timeout, s"),
            "render_workers": _("Render workers"),
            "max_file_mb": _("Largest file, MB"),
            "follow_symlinks_out": _("Follow links out of added folders"),
            "db_busy_timeout": _("Wait for a locked database, s"),
            "max_pages": _("Most pages per file"),
            "jpeg_quality": _("JPEG quality"),
            "check_min_year": _("Documents dated before this year go to review"),
            "page_timeout": _("Render timeout per page, s"),
            "anthropic_model": _("Model"),
            "anthropic_timeout": _("Request timeout, s"),
            "anthropic_max_retries": _("SDK retries"),
            "claude_output": _("Output format"),
            "claude_effort": _("Effort"),
            "profile_path": _("Document profile (first and escalation models)"),
            "claude_thinking": _("Thinking"),
            "max_output_tokens": _("Max output tokens"),
            "request_retries": _("Request retries"),
            "counterparty_kept": _("Confirmed documents kept per seller"),
            "counterparty_min_confirmed": _(
                "Agreeing confirmations before a seller's usual values count"
            ),
            "batch_max_requests": _("Requests per batch"),
            "batch_max_mb": _("Batch size limit, MB"),
            "budget_run_usd": _("Budget per run, USD (0: no cap)"),
            "budget_month_usd": _("Budget per month, USD (0: no cap)"),
            "ocr_engine": _("Engine"),
            "ocr_languages": _("Languages"),
            "language": _("Command-line language"),
            "ocr_timeout": _("Timeout, s"),
            "ocr_min_text_chars": _("OCR below this many characters"),
            "anthropic_api_key": _("API key"),
            "anthropic_base_url": _("API address"),
            "mongodb_uri": _("Connection URI"),
            "minio_endpoint": _("Endpoint"),
            "minio_access_key": _("Access key"),
            "minio_secret_key": _("Secret key"),
            "minio_bucket": _("Bucket"),
            "minio_secure": _("Use HTTPS"),
            "blob_cache_mb": _("Local cache, MB"),
            "redis_url": _("URL"),
            "celery_broker_url": _("Broker URL"),
            "execution": _("Run heavy tasks"),
            "workload_ttl": _("Workload key lifetime, s"),
            "leader_ttl": _("Batch leader lock, s"),
            "yadisk_token": _("OAuth token"),
            "yadisk_api_url": _("API address"),
            "google_application_credentials": _("Credentials file"),
            "google_vision_endpoint": _("Vision endpoint"),
            "max_page_text_chars": _("Most text kept per page, characters"),
            "max_image_pixels": _("Largest image, pixels"),
            "child_memory_mb": _("Memory per processing child, MB"),
            "registry_max_rows": _("Registry: most rows"),
            "registry_max_columns": _("Registry: most columns"),
            "registry_max_cell_chars": _("Registry: most characters per cell"),
            "shared_folder": _("Shared folder for Celery tasks"),
            "yadisk_timeout": _("Whole import within, s"),
            "yadisk_max_files": _("Most files per import"),
            "yadisk_max_depth": _("Deepest folder level"),
            "mail_host": _("IMAP server"),
            "mail_port": _("Port (0: the usual one)"),
            "mail_security": _("Connection"),
            "mail_user": _("User"),
            "mail_password": _("Password or app token"),
            "mail_ca_file": _("Trusted certificate authority (PEM)"),
            "mail_folders": _("Folders to read (; between)"),
            "mail_after": _("After a message is taken"),
            "mail_move_to": _("Move taken messages to"),
            "mail_body_as_pdf": _("A message without attachments becomes a PDF"),
            "mail_poll_seconds": _("Check the mailbox every, s"),
            "mail_timeout": _("Each server read within, s"),
            "mail_max_message_mb": _("Largest message, MB"),
            "mail_max_attachment_mb": _("Largest attachment, MB"),
            "mail_max_attachments": _("Most attachments per message"),
            "mail_max_depth": _("Deepest forwarded message"),
            "separator_value": _("Separator sheet barcode (empty: none)"),
            "asn_pattern": _("Archive serial number barcode (regular expression)"),
            "watch_folders": _("Watched folders (; between)"),
            "watch_after": _("After intake, the original is"),
            "watch_settle_seconds": _("A file is complete after unchanged, s"),
            "watch_poll_seconds": _("List watched folders every, s"),
            "webhook_url": _("Webhook URL"),
            "webhook_secret": _("Webhook signing secret"),
            "webhook_attempts": _("Webhook tries per delivery"),
            "webhook_timeout": _("Webhook timeout per try, s"),
        }

    def _group(self, group: str, names: list[str], probes: list[tuple[str, Probe]]) -> QGroupBox:
        labels = self._labels()
        titles = self._titles()
        box = QGroupBox(titles[group])
        form = QFormLayout(box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        for name in names:
            editor = FieldEditor(name, Settings.model_fields[name])
            if editor.variable in self.environment:
                editor.lock_to_environment()
            editor.changed.connect(self._validate)
            self._editors[name] = editor
            label = QLabel(labels.get(name) or name.replace("_", " ").capitalize())
            label.setToolTip(editor.variable)
            label.setMinimumWidth(LABEL_WIDTH)  # one label column across all groups
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            form.addRow(label, editor)
        for name, probe in probes:
            test = ConnectionTest()
            test.button.clicked.connect(
                lambda _checked=False, test=test, probe=probe: test.start(self._candidate, probe)
            )
            self._tests[name] = test
            form.addRow(titles[name] if len(probes) > 1 else "", test)
        return box

    def _interface_group(self) -> QGroupBox:
        box = QGroupBox(_("Interface"))
        form = QFormLayout(box)
        self._language = language = QComboBox()
        language.addItem(_("System default"), "")
        for code, name in LANGUAGES.items():
            language.addItem(name, code)
        language.setToolTip(
            _("Stored in the application settings ({key})").format(key=LANGUAGE_KEY)
        )
        language.currentIndexChanged.connect(self._validate)
        note = QLabel(_("A new language is applied the next time DocBatch starts."))
        note.setStyleSheet(NOTE_STYLE)
        column = filled(QVBoxLayout(), language, note)
        column.setSpacing(2)
        label = QLabel(_("Language"))
        label.setMinimumWidth(LABEL_WIDTH)
        label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.addRow(label, column)
        return box

    # -- values ----------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """What the form holds, keyed by variable, without environment-set fields."""
        return {e.variable: e.value() for e in self.editors.values() if not e.locked}

    def _state(self) -> dict[str, Any]:
        return {**self.values(), LANGUAGE_KEY: self.language.currentData()}

    def revert(self) -> None:
        """Every widget back to the saved values (Cancel)."""
        for name, editor in self.editors.items():
            with QSignalBlocker(editor):
                editor.set_value(getattr(self.current, name))
        saved_language = str(self.ctx.qsettings.value(LANGUAGE_KEY, "") or "")
        with QSignalBlocker(self.language):
            self.language.setCurrentIndex(max(0, self.language.findData(saved_language)))
        self._baseline = self._state()
        self._validate()

    def _validate(self) -> None:
        """Check each field against the model as it is typed; Save only when all pass."""
        validator = Settings.__pydantic_validator__
        errors = 0
        for name, editor in self.editors.items():
            reason = None
            if not editor.locked:
                try:
                    validator.validate_assignment(self.current.model_copy(), name, editor.value())
                except ValidationError as exc:
                    first = exc.errors()[0]
                    # an error without a field is a combination: judged below, whole
                    reason = field_problem(first) if first["loc"] else None
                if reason is None:  # what the disk says (a folder that is a file)
                    found = disk_problem(name, editor.value())
                    reason = found.words(interface_language()) if found else None
            if reason is None and name == "ocr_languages":
                reason = ocr_languages_error(self.editors["ocr_engine"].value(), editor.value())
            editor.set_error(reason)
            errors += reason is not None
        self._show_effective_mode()
        if not errors:
            errors += self._combination_error()
        dirty = self._state() != self._baseline
        self.save_button.setEnabled(dirty and errors == 0)
        self.cancel_button.setEnabled(dirty)
        self.status.setStyleSheet(FAIL_STYLE)
        self.status.setText(
            ngettext(
                "{count} value needs fixing before saving.",
                "{count} values need fixing before saving.",
                errors,
            ).format(count=errors)
            if errors
            else ""
        )

    def choose(self, name: str, value: object) -> None:
        """Put ``value`` in the field ``name``, as the operator would (Save still saves)."""
        self.editors[name].set_value(value)
        self._validate()

    def set_offline(self, offline: bool) -> None:
        """Whether the app runs without an Anthropic key, so a sync or batch setting
        is not the mode files are processed in."""
        self._offline = offline
        if self._built:
            self._show_effective_mode()

    def _show_effective_mode(self) -> None:
        """Under *Processing mode*, the mode in effect when it is not the one chosen."""
        editor = self._editors.get("processing_mode")
        if editor is None:
            return
        chosen = editor.value()
        keyed = getattr(chosen, "value", chosen) in (
            ProcessingMode.SYNC.value,
            ProcessingMode.BATCH.value,
        )
        editor.set_note(
            _(
                "In effect now: offline. No Anthropic API key is set, so new files are read "
                "by the offline extractor and nothing is sent to Claude."
            )
            if self._offline and keyed
            else ""
        )

    def _combination_error(self) -> int:
        """Model, effort, thinking, output and budget judged together, as the model's
        documented rules do; the reason goes under the field that was changed."""
        names = (
            "anthropic_model",
            "claude_effort",
            "claude_thinking",
            "claude_output",
            "max_output_tokens",
        )
        form = {
            n: self.editors[n].value() if n in self.editors else getattr(self.current, n)
            for n in names
        }
        problem = combination_problem(*(form[n] for n in names))
        if problem is None:
            return 0
        changed = [n for n in names if n in self.editors and form[n] != getattr(self.current, n)]
        self.editors[(changed or ["anthropic_model"])[-1]].set_error(
            problem.words(interface_language())
        )
        return 1

    async def _candidate(self) -> Settings:
        """The settings the form describes (environment on top), for a connection test."""
        values = self.values()
        return await asyncio.to_thread(lambda: load_settings(**values))

    # -- saving ----------------------------------------------------------------------------

    async def save(self) -> None:
        values = self.values()
        language = self.language.currentData()
        self.save_button.setEnabled(False)
        # a closure, not arguments: qasync's executor logs call arguments at DEBUG
        new = await asyncio.to_thread(lambda: save_settings(values))
        self.ctx.qsettings.setValue(LANGUAGE_KEY, language)
        self.ctx.qsettings.sync()
        self.current = new
        self.revert()
        self.status.setStyleSheet(OK_STYLE)
        self.status.setText(_("Saved. The engine takes them over as soon as no job is running."))
        self.saved.emit(new)

    def _save_failed(self, error: BaseException) -> None:
        self._validate()
        self.status.setStyleSheet(FAIL_STYLE)
        self.status.setText(_("Not saved: {error}").format(error=error))
