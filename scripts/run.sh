#!/usr/bin/env bash
# Quick start, command 1: install DocBatch into .venv and run it on the embedded
# default (SQLite + local blobs + in-process worker; no server, no API key).
# Until the desktop window lands, this processes the bundled samples headless and
# prints the documents found. Extra arguments go to `docbatch process`.
source "$(dirname "$0")/bootstrap.sh"
ensure_venv ""
say "processing the bundled samples in resources/samples/"
exec "$VENV/bin/docbatch" process "$ROOT/resources/samples" --wait "$@"
