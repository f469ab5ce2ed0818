"""The log file, ``DATA_DIR/logs/docbatch.log``, for the window and the command line.

Every job failure, timeout and skipped page is logged by the engine; this file is
where an operator (or support) reads them after the fact, whichever front end ran.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
from pathlib import Path

from docbatch_gui.settings.model import Settings
from docbatch_gui.settings.secrets import ScrubbingFilter, remember_secrets, secret_values
from docbatch_gui.system.privacy import make_private

FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"


def log_path(settings: Settings) -> Path:
    return settings.data_dir / "logs" / "docbatch.log"


def log_to_file(settings: Settings, level: int = logging.INFO) -> logging.Handler | None:
    """Add a rotating file handler to the root logger (once per file); None when the
    folder cannot be written, which must not stop the program."""
    path = log_path(settings)
    remember_secrets(secret_values(settings))
    root = logging.getLogger()
    for handler in root.handlers:
        if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename) == path:
            return handler
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=5 * 2**20, backupCount=3, encoding="utf-8"
        )
        make_private(path)  # the log names files and quotes their fields
        make_private(path.parent)
        handler.setLevel(level)
        handler.setFormatter(logging.Formatter(FORMAT))
        handler.addFilter(ScrubbingFilter())
        if root.level > level or root.level == logging.NOTSET:
            root.setLevel(level)
        root.addHandler(handler)
        return handler
    return None
