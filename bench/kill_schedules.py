"""Randomized kill -9 schedules in batch mode: requests paid twice, files lost.

Each schedule (a seed) queues six one-page invoices in batch mode on a fresh data
folder and runs the real ``docbatch worker`` against the fake Anthropic server,
killing it with SIGKILL at seeded moments (crash points between the store writes of
the submit and result paths, ``tests/kill_schedules.py``) until every job is final.
The fake's ledger then tells which request ids ran twice with a billable outcome.

    python bench/kill_schedules.py --seeds 10 [--first 1] [--files 6] [--budget 900]

One line per schedule on stderr; the last line on stdout is JSON: ``schedules``,
``kills``, ``paid_twice`` (request ids billed more than once, summed over the
schedules), ``files_not_done``, ``most_attempts`` (1: no kill counted as a try),
``seconds``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fakes.anthropic_server import FakeAnthropic  # noqa: E402
from tests.kill_schedules import SUCCESS, run_schedule  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--files", type=int, default=6)
    parser.add_argument("--budget", type=float, default=900, help="seconds per schedule")
    args = parser.parse_args()
    started = time.monotonic()
    totals = {"schedules": 0, "kills": 0, "paid_twice": 0, "files_not_done": 0}
    most_attempts = 0
    with FakeAnthropic() as fake, tempfile.TemporaryDirectory() as root:
        for seed in range(args.first, args.first + args.seeds):
            outcome = run_schedule(seed, Path(root), fake, files=args.files, budget_s=args.budget)
            totals["schedules"] += 1
            totals["kills"] += len(outcome.kills)
            totals["paid_twice"] += len(outcome.paid_twice)
            totals["files_not_done"] += sum(s not in SUCCESS for s in outcome.states.values())
            most_attempts = max(most_attempts, outcome.most_attempts)
            print(
                f"seed {seed}: {len(outcome.kills)} kill(s) at {', '.join(outcome.kills)}; "
                f"paid twice {outcome.paid_twice or 0}; states {sorted(outcome.states.values())};"
                f" most attempts {outcome.most_attempts}; {outcome.seconds} s",
                file=sys.stderr,
                flush=True,
            )
    totals["most_attempts"] = most_attempts
    print(json.dumps({**totals, "seconds": round(time.monotonic() - started, 1)}))


if __name__ == "__main__":
    main()
