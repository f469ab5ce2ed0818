#!/usr/bin/env bash
# Quick start, command 2: install everything the tests need and run the whole suite.
# .ci/run calls exactly this. Extra arguments go to pytest.
# --fast: the fast loop, every test but those marked slow (under a minute on 2 cores);
# --no-lint: skip the lint step (ruff, lint-imports, mypy), which runs first and stops
# the run when it fails; the other arguments still go to pytest (docs/testing.md).
args=()
lint=1
for arg in "$@"; do
    case "$arg" in
        --fast) args+=(-m "not slow") ;;
        --no-lint) lint=0 ;;
        *) args+=("$arg") ;;
    esac
done
set -- ${args[@]+"${args[@]}"}
source "$(dirname "$0")/bootstrap.sh"
# Tesseract reads scans offline (Russian and English), no key needed.
ensure_apt tesseract-ocr tesseract-ocr-rus tesseract-ocr-eng
# The team tests start their own throwaway Redis (workload manager, Celery broker, leader lock).
ensure_apt redis-server
# msgfmt -c checks the gettext catalogue (tests/unit/test_catalogue_words.py).
ensure_apt gettext
# The desktop entry and AppStream metainfo are checked by their own validators.
ensure_apt desktop-file-utils appstream
# The mailbox tests start their own IMAP server on loopback (tests/mail_server.py).
ensure_apt dovecot-imapd
# The GUI tests run offscreen: Qt's runtime libraries, but no X server.
ensure_apt "${QT_RUNTIME_APT[@]}"
# [dev]: every extra and the test tools, at the versions of requirements/dev.lock
ensure_venv "dev"
export QT_QPA_PLATFORM=offscreen
# Keep the compiled modules (__pycache__, ignored by git) even where the environment says
# not to write them: otherwise each xdist worker compiles and assertion-rewrites every test
# module again, and each CLI, render child or Celery worker a test starts compiles
# docbatch_gui again (about 5 s of CPU per worker, half a second per child, every run).
unset PYTHONDONTWRITEBYTECODE
if [ "$lint" -eq 1 ]; then
    say "lint: ruff, lint-imports, mypy (this platform and win32)"
    VENV="$VENV" bash "$ROOT/scripts/lint.sh" || exit 1
fi
say "running the test suite"
# Three workers on two cores: the slow tests wait on child processes, deadlines and
# polling, and a third worker fills those waits (docs/testing.md has the figures).
# The 25 slowest steps are listed at the end: where the run's time goes.
exec "$VENV/bin/python" -m pytest -n "${DOCBATCH_TEST_WORKERS:-3}" --dist worksteal --durations=25 "$@"
