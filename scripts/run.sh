#!/usr/bin/env bash
# Quick start, command 1: install DocBatch into .venv and start the desktop window on
# the embedded default (SQLite + local blobs + in-process worker; no server, no API
# key). Extra arguments go to the window (e.g. --lang ru, --data-dir DIR).
#
#   bash scripts/run.sh --headless [ARGS]   processes the bundled samples in the
#                                           terminal instead; ARGS go to `docbatch process`
source "$(dirname "$0")/bootstrap.sh"
# Tesseract reads scans offline (Russian and English), no key needed.
ensure_apt tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng
if [ "${1:-}" = "--headless" ]; then
    shift
    ensure_venv ""  # the core alone: no Qt needed in a terminal
    say "processing the bundled samples in docbatch_gui/resources/samples/"
    exec "$VENV/bin/docbatch" process "$ROOT/docbatch_gui/resources/samples" --wait "$@"
fi
ensure_apt "${QT_RUNTIME_APT[@]}"
if [ -z "${QT_QPA_PLATFORM:-}" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    say "no display (DISPLAY and WAYLAND_DISPLAY are unset): run it on a desktop, over"
    say "ssh -X, or use 'bash scripts/run.sh --headless' to process the samples here"
    exit 2
fi
[ "${QT_QPA_PLATFORM:-xcb}" = "xcb" ] && ensure_apt "${QT_X11_APT[@]}"
# the core (SQLite, local blobs, Tesseract, Claude) and the window's [gui] extra
ensure_venv "gui"
say "starting the DocBatch window (drop files on it; the samples are in docbatch_gui/resources/samples/)"
exec "$VENV/bin/docbatch-gui" "$@"
