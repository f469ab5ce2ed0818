"""Data classes, the job state machine and the error kinds. No I/O lives here."""

from docbatch_gui.domain.errors import (
    ConfigError,
    CriticalError,
    DocBatchError,
    ErrorKind,
    ExitCode,
    InvalidTransition,
    JobTimeout,
    NotFound,
    RetryableError,
    UnsupportedInput,
)
from docbatch_gui.domain.models import (
    BatchRecord,
    Document,
    Job,
    NewJob,
    OcrRecord,
    Page,
    RequestRecord,
)
from docbatch_gui.domain.states import (
    ACTIVE_STATES,
    FINAL_STATES,
    SUCCESS_STATES,
    JobState,
    Phase,
    can_transition,
    check_transition,
)

__all__ = [
    "ACTIVE_STATES",
    "FINAL_STATES",
    "SUCCESS_STATES",
    "BatchRecord",
    "ConfigError",
    "CriticalError",
    "DocBatchError",
    "Document",
    "ErrorKind",
    "ExitCode",
    "InvalidTransition",
    "Job",
    "JobState",
    "JobTimeout",
    "NewJob",
    "NotFound",
    "OcrRecord",
    "Page",
    "Phase",
    "RequestRecord",
    "RetryableError",
    "UnsupportedInput",
    "can_transition",
    "check_transition",
]
