"""How a command that stops on an error ends: one sentence on stderr, a documented
exit code, never a traceback (unless asked for with ``--debug``).

A script reads the exit code (``ExitCode`` in ``domain.errors``, the table in
docs/cli.md); a person reads the sentence, which names the thing and what to do. An
error nobody foresaw is the exception: its traceback goes to the log file, where
support can read it, and the sentence says where that file is.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import traceback
from pathlib import Path

from docbatch_gui.app.log_file import log_path
from docbatch_gui.cli.output import Language, complain, err, words
from docbatch_gui.domain.errors import DocBatchError, ExitCode, NotFound
from docbatch_gui.i18n import N_
from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import scrub_secrets
from docbatch_gui.storage.health import storage_error

log = logging.getLogger("docbatch_gui.cli")

#: ``DOCBATCH_DEBUG=1`` is ``--debug`` for a command run by another program
DEBUG_VARIABLE = "DOCBATCH_DEBUG"
#: a log record with this attribute set goes to the log file only, not the terminal
FILE_ONLY = "docbatch_file_only"

#: where to look for the right id, per kind of thing ``NotFound`` names
WHERE_TO_LOOK = {
    "job": N_("`docbatch jobs` lists the jobs"),
    "document": N_("`docbatch documents --json` lists the documents with their ids"),
    "page": N_("`docbatch pages --job ID` lists a job's pages"),
    "registry": N_("`docbatch registry list` lists the registries"),
    "row": N_("`docbatch registry results ID` lists a registry's rows"),
    "batch": N_("`docbatch batches --json` lists the batches with their local ids"),
    "setting": N_("the Configuration section of the README lists the settings"),
    "counterparty": N_("`docbatch counterparties` lists the remembered sellers"),
    "file": N_("check the path"),
}
#: ``NotFound``'s own words ("no job 7", as the store says it), per kind
NO_SUCH = {
    "job": N_("no job {which}"),
    "document": N_("no document {which}"),
    "page": N_("no page {which}"),
    "registry": N_("no registry {which}"),
    "row": N_("no row {which}"),
    "batch": N_("no batch {which}"),
    "setting": N_("no setting {which}"),
    "counterparty": N_("no counterparty {which}"),
    "file": N_("no file {which}"),
}
#: things kept in the data folder: a wrong --data-dir is the usual cause
IN_DATA_FOLDER = {"job", "document", "page", "registry", "row", "batch", "counterparty"}


def debug_requested(flag: bool) -> bool:
    return flag or os.environ.get(DEBUG_VARIABLE, "").strip().lower() in {"1", "true", "yes"}


def one_line(text: str) -> str:
    """A message that quotes a multi-line reason still takes one line on stderr."""
    return " ".join(text.split())


def sentence(text: str) -> str:
    """One line, capitalised and ended, whichever layer wrote it. Only a plain word is
    capitalised: a message may start with a file name, which is shown as it is."""
    text = one_line(text)
    if not text:
        return text
    first = text.split(" ", 1)[0]
    if first.isalpha() and first.islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def not_found(exc: NotFound, settings: Settings | None) -> str:
    """What was not found, where, and what lists the right ids, in the run's language."""
    w = words()
    said = exc.words(Language.current)
    if not exc.message.code and exc.what in NO_SUCH and said == f"no {exc.what} {exc.which}":
        said = w.gettext(NO_SUCH[exc.what]).format(which=exc.which)
    hint = w.gettext(WHERE_TO_LOOK.get(exc.what, N_("check the id or name")))
    if settings is not None and exc.what in IN_DATA_FOLDER:
        return sentence(
            w.gettext(
                "{missing} in the data folder {folder}: {hint} (--data-dir picks another data "
                "folder)"
            ).format(missing=said, folder=settings.data_dir, hint=hint)
        )
    return sentence(f"{said}: {hint}")


def os_error(exc: OSError, settings: Settings | None) -> DocBatchError | tuple[ExitCode, str]:
    """An OS error on the data folder or the database is a storage problem; on a path
    the operator gave (a file to import, a file to write), it is about that path."""
    name = exc.filename if isinstance(exc.filename, str) else None
    data_dir = settings.data_dir if settings is not None else None
    inside = name is None or (data_dir is not None and _within(Path(name), data_dir))
    if inside or exc.errno == errno.ENOSPC:
        where = Path(name) if name is not None else data_dir or Path.cwd()
        return storage_error(exc, where)
    reason = exc.strerror or str(exc)
    w = words()
    if isinstance(exc, FileNotFoundError):
        missing = w.gettext("{path} cannot be reached ({reason}): check the path")
        return ExitCode.NOT_FOUND, missing.format(path=name, reason=reason)
    if isinstance(exc, IsADirectoryError):
        folder = w.gettext("{path} is a folder: give a file's path")
        return ExitCode.UNSUPPORTED, folder.format(path=name)
    unusable = w.gettext(
        "{path} cannot be used ({reason}): check the path, and that this user may read or write it"
    )
    return ExitCode.UNSUPPORTED, unusable.format(path=name, reason=reason)


def _within(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False


def describe(exc: BaseException, settings: Settings | None) -> tuple[int, str] | None:
    """The exit code and sentence for an error the operator can act on; None for one
    nobody foresaw (a bug, or a library failing in a new way)."""
    if isinstance(exc, KeyboardInterrupt):
        return ExitCode.INTERRUPTED, words().gettext(
            "Interrupted: what was saved so far is kept; run the command again to finish."
        )
    if isinstance(exc, NotFound):
        return exc.exit_code, not_found(exc, settings)
    if isinstance(exc, DocBatchError):
        return exc.exit_code, sentence(exc.words(Language.current))
    if isinstance(exc, sqlite3.Error):
        db = settings.db_path if settings is not None else Path("the database")
        converted = storage_error(exc, db)
        return converted.exit_code, sentence(converted.words(Language.current))
    if isinstance(exc, OSError):
        found = os_error(exc, settings)
        if isinstance(found, DocBatchError):
            return found.exit_code, sentence(found.words(Language.current))
        return found[0], sentence(found[1])
    return None


def report(exc: BaseException, *, settings: Settings | None, command: str, debug: bool) -> int:
    """Tell the operator, log the details, and return the exit code."""
    if isinstance(exc, BrokenPipeError):  # `docbatch jobs | head`: the reader is gone
        _silence_stdout()
        return ExitCode.BROKEN_PIPE
    if debug:
        text = "".join(traceback.format_exception(exc))
        err.file.write(scrub_secrets(text))
    known = describe(exc, settings)
    if known is not None:
        code, message = known
        log.info("docbatch %s: %s (exit %d)", command, message, code, extra={FILE_ONLY: True})
        complain(message)
        return code
    log.error("docbatch %s failed unexpectedly", command, exc_info=exc, extra={FILE_ONLY: True})
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    w = words()
    if debug:
        details = w.gettext("the traceback is above")
    elif settings is not None and log_path(settings).is_file():
        details = w.gettext("the details are in {path}; --debug shows them here")
        details = details.format(path=log_path(settings))
    else:
        details = w.gettext("run it again with --debug to see the details")
    failed = w.gettext("docbatch {command} failed unexpectedly ({error}); {details}.")
    complain(one_line(failed.format(command=command, error=what, details=details)))
    return ExitCode.FAILED


def _silence_stdout() -> None:
    """Python flushes stdout at exit; into a closed pipe that is one more error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass


class TerminalFilter(logging.Filter):
    """Keeps the records meant for the log file only (a traceback) off the terminal."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(record, FILE_ONLY, False)
