# Shared set-up for scripts/run.sh and scripts/test.sh; source it, don't run it.
# Creates or reuses .venv in the checkout and installs what is missing, apt packages
# included, so both README commands work on a fresh Debian/Ubuntu machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
cd "$ROOT"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        say "need root for: $*  (run as root or install sudo)"; return 1; fi
}

APT_UPDATED=0
# installed PKG: true when the Debian package is installed.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
# ensure_apt PKG...: install the Debian packages that are not installed yet. Ubuntu
# 24.04 renamed some libraries with a t64 suffix (libglib2.0-0t64); either counts.
ensure_apt() {
    local missing=()
    for pkg in "$@"; do
        installed "$pkg" || installed "${pkg}t64" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        say "please install: ${missing[*]} (no apt-get on this machine)"; return 0
    fi
    say "installing system packages: ${missing[*]}"
    if [ "$APT_UPDATED" -eq 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Qt's runtime libraries (PySide6 wheels bundle Qt itself, not these system ones).
# Offscreen (tests, the self-test) needs the first list; a window on an X display also
# needs the xcb plugin's libraries, read off `ldd` of Qt 6.12's libqxcb.so and
# libQt6XcbQpa.so (Qt 6 no longer links libxcb-xinerama0).
QT_RUNTIME_APT=(libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0
    fonts-dejavu-core)
QT_X11_APT=(libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
    libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-sync1 libxcb-xfixes0 libxcb-xkb1
    libxkbcommon-x11-0)

find_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    say "Python 3.11 or newer is required"; return 1
}

#: the versions the test suite passed with; every install takes them as constraints
#: (refreshed by scripts/lock.sh)
LOCK="$ROOT/requirements/dev.lock"

# make_venv: create .venv if it does not exist yet (nothing of the project installed).
make_venv() {
    local python
    python="$(find_python)"
    [ -x "$VENV/bin/python" ] && return 0
    if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
        local minor; minor="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
        ensure_apt "python${minor}-venv" || ensure_apt python3-venv
    fi
    say "creating $VENV"
    "$python" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
}

# covers INSTALLED WANTED: true when the installed extras include the wanted ones;
# [dev] pulls in [gui], and [gui] is the core plus Qt.
covers() {
    [ "$1" = "$2" ] || [ "$1" = dev ] || { [ "$1" = gui ] && [ -z "$2" ]; }
}

# ensure_venv EXTRAS: create .venv if needed and install the project with EXTRAS
# ("" for the core, "gui", or "dev"), pinned to the lock file; reinstalls only when
# pyproject.toml or the lock changed, or more extras are wanted.
ensure_venv() {
    local extras="$1" stamp hash installed=""
    make_venv
    stamp="$VENV/.docbatch-installed"
    hash="$(cat pyproject.toml "$LOCK" | sha256sum | cut -c1-16)"
    if [ -f "$stamp" ] && [ "$(cut -d' ' -f1 "$stamp")" = "$hash" ]; then
        installed="$(cut -d' ' -f2 "$stamp")"; installed="${installed#[}"; installed="${installed%]}"
        covers "$installed" "$extras" && return 0
    fi
    say "installing DocBatch${extras:+ with [$extras]} into .venv (versions from ${LOCK#"$ROOT"/})"
    local spec="."
    [ -n "$extras" ] && spec=".[$extras]"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -c "$LOCK" -e "$spec"
    echo "$hash [$extras]" > "$stamp"
}
