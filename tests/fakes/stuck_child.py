"""A child that hangs, after starting a grandchild that hangs too.

It stands in for a renderer stuck on a pathological scan: the timeout must kill the
whole process tree, not just the direct child (seed 004).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

if __name__ == "__main__":
    payload = json.loads(sys.stdin.read())
    grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print(json.dumps({"event": "started", "grandchild": grandchild.pid}), flush=True)
    if payload.get("exit_early"):
        sys.exit(3)  # leaves the grandchild running in the group
    time.sleep(600)
