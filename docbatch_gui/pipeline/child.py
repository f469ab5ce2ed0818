"""Entry point of an isolated prepare child: ``python -m docbatch_gui.pipeline.child``.

It reads one ``PrepareTask`` as JSON on stdin and writes one JSON object per line on
the protocol stream: ``count``, then ``page`` per page, then ``done`` or ``error``.
Library chatter (MuPDF warnings) goes to stderr so it can never corrupt the stream.
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import sys
from typing import Any

from docbatch_gui.domain.errors import DocBatchError
from docbatch_gui.pipeline.render import PrepareTask, render_pages


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL us when the parent dies, so a killed worker leaves no child."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass


def main() -> int:
    _die_with_parent()
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

    def send(message: dict[str, Any]) -> None:
        protocol.write(json.dumps(message, ensure_ascii=False) + "\n")

    task = PrepareTask(**json.loads(sys.stdin.read()))
    try:
        for page in render_pages(task, lambda count: send({"event": "count", "pages": count})):
            send({"event": "page", **page.__dict__})
    except DocBatchError as exc:
        send({"event": "error", "kind": exc.kind.value, "message": exc.message})
        return 0
    except MemoryError:
        send(
            {
                "event": "error",
                "kind": "retryable",
                "message": f"{task.file_name}: ran out of memory while rendering; "
                "it will be retried when fewer files are in progress.",
            }
        )
        return 0
    except Exception as exc:
        send(
            {
                "event": "error",
                "kind": "unsupported",
                "message": f"{task.file_name}: could not be read ({type(exc).__name__}: "
                f"{str(exc)[:200]}). Re-save it as PDF and add it again.",
            }
        )
        return 0
    send({"event": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
