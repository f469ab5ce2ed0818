#!/usr/bin/env bash
# The lint step: ruff, the import contracts (lint-imports) and mypy for this platform
# and for Windows, over this checkout. scripts/test.sh runs it before the tests and
# stops when it fails; run it alone after an edit (docs/testing.md, "The lint step").
# mypy keeps its incremental caches in .mypy_cache/ (one per platform): a warm run
# takes seconds, a cold one one to two minutes of CPU per platform.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${VENV:-$ROOT/.venv}"
cd "$ROOT"
# this checkout's package, even where the virtualenv has another one installed
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
LOGS="$(mktemp -d)"
trap 'rm -rf "$LOGS"' EXIT
failed=()

# report NAME STATUS STARTED: one line per check; its output only when it failed
report() {
    if [ "$2" -eq 0 ]; then
        printf '==> lint: %s ok (%ss)\n' "$1" "$((SECONDS - $3))" >&2
    else
        printf '==> lint: %s FAILED\n' "$1" >&2
        cat "$LOGS/$1.log" >&2
        failed+=("$1")
    fi
}

started=$SECONDS
# the four checks are independent: all at once (the two mypy runs take a core each;
# ruff and lint-imports take a fraction of a second of CPU beside them)
"$VENV/bin/mypy" --cache-dir .mypy_cache/native docbatch_gui >"$LOGS/mypy.log" 2>&1 &
native=$!
"$VENV/bin/mypy" --cache-dir .mypy_cache/win32 --platform win32 docbatch_gui \
    >"$LOGS/mypy-win32.log" 2>&1 &
win32=$!
"$VENV/bin/ruff" check --quiet docbatch_gui tests bench scripts >"$LOGS/ruff.log" 2>&1 &
ruff=$!
"$VENV/bin/lint-imports" --no-cache >"$LOGS/lint-imports.log" 2>&1 &
contracts=$!
wait "$ruff"
report ruff $? "$started"
wait "$contracts"
report lint-imports $? "$started"
wait "$native"
report mypy $? "$started"
wait "$win32"
report mypy-win32 $? "$started"
if [ ${#failed[@]} -gt 0 ]; then
    printf '==> lint failed: %s (fix them, then run the tests)\n' "${failed[*]}" >&2
    exit 1
fi
