"""Failure kinds.

Every failure the queue can show is an exception class carrying an ``ErrorKind``, so
the queue can filter on it and the UI can tell "busy, will retry" from "input not
supported" (seed 004).
"""

from __future__ import annotations

from enum import StrEnum


class ErrorKind(StrEnum):
    RETRYABLE = "retryable"  # busy, 429/5xx, network: try again later
    UNSUPPORTED = "unsupported"  # bad input: a person must act
    CRITICAL = "critical"  # billing or auth: stop the queue
    TIMEOUT = "timeout"  # the job ran past its deadline and was killed


class DocBatchError(Exception):
    """Base class; ``kind`` decides what the queue does with the job."""

    kind: ErrorKind = ErrorKind.RETRYABLE

    def __init__(self, message: str, *, file: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file

    def __str__(self) -> str:
        return self.message


class RetryableError(DocBatchError):
    kind = ErrorKind.RETRYABLE


class UnsupportedInput(DocBatchError):
    """The input cannot be processed as it is; the message says what to do."""

    kind = ErrorKind.UNSUPPORTED


class CriticalError(DocBatchError):
    kind = ErrorKind.CRITICAL


class JobTimeout(DocBatchError):
    kind = ErrorKind.TIMEOUT


class InvalidTransition(DocBatchError):
    """A state change the contract forbids, or one based on a stale view of the job.

    It is a programming or race condition, not a property of the input, so it is not
    shown as a job error.
    """

    kind = ErrorKind.CRITICAL


class ConfigError(DocBatchError):
    """Invalid settings: the start stops with this one message."""

    kind = ErrorKind.CRITICAL


class StorageError(DocBatchError):
    """The database or the blob folder cannot be used (damaged, full, missing,
    unreadable): nothing can be processed until a person fixes it."""

    kind = ErrorKind.CRITICAL


class StoreBusy(DocBatchError):
    """The database stayed locked by another program past the busy timeout: the work
    is retried, nothing is failed for it."""

    kind = ErrorKind.RETRYABLE
