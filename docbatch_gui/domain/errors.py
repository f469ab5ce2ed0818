"""Failure kinds and exit codes.

Every failure the queue can show is an exception class carrying an ``ErrorKind``, so
the queue can filter on it and the UI can tell "busy, will retry" from "input not
supported". Every class also carries the exit code the command line ends with when it
stops on that failure, so a script can tell "no such job" from "database locked"
without reading the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum, StrEnum
from typing import Any, ClassVar, Self

from docbatch_gui.domain.messages import Message, as_message, coded


class ErrorKind(StrEnum):
    RETRYABLE = "retryable"  # busy, 429/5xx, network: try again later
    UNSUPPORTED = "unsupported"  # bad input: a person must act
    CRITICAL = "critical"  # billing or auth: stop the queue
    TIMEOUT = "timeout"  # the job ran past its deadline and was killed


class ExitCode(IntEnum):
    """What ``docbatch`` returns; documented for scripts, so values never change."""

    OK = 0
    FAILED = 1  # a job or a check failed, a service refused, or an unexpected error
    USAGE = 2  # the command line itself is wrong (argparse uses 2 too)
    NOT_FOUND = 3  # no job, document, registry, row, batch or file of that id or name
    WRONG_STATE = 4  # the thing exists but refuses this now (state, or needs --force)
    CONFIG = 5  # a setting or a configuration file is invalid
    STORAGE = 6  # the database or the data folder is damaged, full, locked or unwritable
    UNSUPPORTED = 7  # the input given cannot be used as it is
    CRITICAL = 8  # the account: a refused key, billing
    BUSY = 9  # temporary: busy or unreachable, try again later
    INTERRUPTED = 130  # Ctrl+C or a canceled long operation (128 + SIGINT)
    BROKEN_PIPE = 141  # the reader of the output went away (128 + SIGPIPE), e.g. `| head`


class DocBatchError(Exception):
    """Base class; ``kind`` decides what the queue does with the job, ``exit_code``
    what the command line returns."""

    kind: ErrorKind = ErrorKind.RETRYABLE
    exit_code: ClassVar[ExitCode] = ExitCode.FAILED

    def __init__(
        self, message: Message | str | Mapping[str, Any], *, file: str | None = None
    ) -> None:
        self.message: Message = (
            Message.from_dict(message) if isinstance(message, Mapping) else as_message(message)
        )
        # args is what pickle and Celery (JSON) rebuild the error from: plain data
        super().__init__(self.message.as_dict())
        self.file = file

    def __str__(self) -> str:
        return self.message.english

    @property
    def text(self) -> str:
        """The English text: what a log, an old reader and ``Job.error`` get."""
        return self.message.english

    @classmethod
    def coded(
        cls, code: str, params: Mapping[str, Any] | None = None, *, file: str | None = None
    ) -> Self:
        """The error of message ``code`` (``domain.messages``): its text is the English
        wording, and the code and parameters go with it to the job and the front ends.
        (``file`` is the error's path; a message's own ``{file}`` is in ``params``.)"""
        return cls(coded(code, **(params or {})), file=file)

    def words(self, language: str = "en") -> str:
        """The error in ``language``; its English text when it has no code."""
        return self.message.words(language)


class RetryableError(DocBatchError):
    kind = ErrorKind.RETRYABLE
    exit_code = ExitCode.BUSY


class CoordinationUnavailable(RetryableError):
    """The team's Redis cannot be used (down, or a wrong password): no machine can lead
    the queue, so waiting would wait forever. The queue stops and says so."""


class RequestHeld(RetryableError):
    """A batch intent would hold a job or a request another open intent or batch holds
    already: sending it would pay for it twice, so nothing is written and the next
    cycle plans again from what the store says."""


class OverBudget(RetryableError):
    """A paid request whose reservation would cross a budget cap: it was not sent.
    Its job waits (held) with what was answered kept; ``refusal`` says which cap."""

    def __init__(
        self, message: Message | str, *, file: str | None = None, refusal: Any = None
    ) -> None:
        super().__init__(message, file=file)
        self.refusal = refusal


class UnsupportedInput(DocBatchError):
    """The input cannot be processed as it is; the message says what to do."""

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.UNSUPPORTED


class OutOfMemory(UnsupportedInput):
    """A child process needed more memory than ``CHILD_MEMORY_MB`` lets it take (an
    allocation refused under its cap). The file fails with that reason: retrying would
    fail the same way, and the other files carry on."""


class CriticalError(DocBatchError):
    kind = ErrorKind.CRITICAL
    exit_code = ExitCode.CRITICAL


class JobTimeout(DocBatchError):
    """A job ran past its deadline: to a script, one more failed job."""

    kind = ErrorKind.TIMEOUT
    exit_code = ExitCode.FAILED


class InvalidTransition(DocBatchError):
    """A state change the contract forbids, or one based on a stale view of the job.

    It is a programming or race condition, not a property of the input, so it is not
    shown as a job error.
    """

    kind = ErrorKind.CRITICAL
    exit_code = ExitCode.WRONG_STATE


class NotFound(DocBatchError):
    """A job, document, registry, row, batch or setting asked for by id or name does
    not exist (never did, or was deleted meanwhile).

    ``what`` and ``which`` let a front end say what to list to find the right one; the
    kind is ``unsupported`` because a person must give another id, and retrying the
    same request cannot help.
    """

    kind = ErrorKind.UNSUPPORTED
    exit_code = ExitCode.NOT_FOUND

    def __init__(self, what: str, which: Any, message: Message | str | None = None) -> None:
        super().__init__(message or f"no {what} {which}")
        self.what = what
        self.which = which
        # what pickle and Celery rebuild the error from: cls(*args)
        self.args = (what, which, message)


class ConfigError(DocBatchError):
    """Invalid settings: the start stops with this one message."""

    kind = ErrorKind.CRITICAL
    exit_code = ExitCode.CONFIG


class StorageError(DocBatchError):
    """The database or the blob folder cannot be used (damaged, full, missing,
    unreadable): nothing can be processed until a person fixes it."""

    kind = ErrorKind.CRITICAL
    exit_code = ExitCode.STORAGE


class StoreBusy(DocBatchError):
    """The database stayed locked by another program past the busy timeout: the work
    is retried, nothing is failed for it."""

    kind = ErrorKind.RETRYABLE
    exit_code = ExitCode.STORAGE
