"""A child speaking the isolate protocol that can hang, after starting a grandchild.

It stands in for a renderer stuck on a pathological scan: the timeout must kill the
whole process tree, not just the direct child. Tasks:
``{"do": "echo"}`` answers done; ``{"do": "hang"}`` starts a grandchild and sleeps;
``{"do": "exit"}`` starts a grandchild and exits mid-task; ``{"do": "crash"}`` exits.
A task of the real protocol (with a ``kind``, e.g. an offline extraction) is told
what to do by its ``file_name``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    for line in sys.stdin:
        task = json.loads(line)
        if "kind" in task:
            task["do"] = task["file_name"]
        if task["do"] == "echo":
            send({"event": "done", "pid": os.getpid()})
            continue
        if task["do"] == "crash":
            sys.stderr.write("fake renderer: segmentation fault\n")
            sys.stderr.flush()
            os._exit(139)
        grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        send({"event": "started", "grandchild": grandchild.pid})
        if task["do"] == "exit":
            os._exit(3)  # leaves the grandchild running in the group
        time.sleep(600)
