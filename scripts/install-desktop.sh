#!/usr/bin/env bash
# Put DocBatch in the desktop's menu for the current user (Linux): the .desktop entry,
# the icon in every size, and the AppStream metainfo, under $XDG_DATA_HOME
# (~/.local/share). The entry starts this checkout's .venv/bin/docbatch-gui (made by
# scripts/run.sh), or docbatch-gui from PATH if there is none; files opened with it
# (Open With) are added to the queue.
#   bash scripts/install-desktop.sh              # install, or update
#   bash scripts/install-desktop.sh --uninstall  # remove what it installed
#   bash scripts/install-desktop.sh --exec PATH  # start PATH instead
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ID="org.docbatch.DocBatch"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
ICONS="$DATA/icons/hicolor"
SIZES=(16 24 32 48 64 128 256 512)
EXEC=""
UNINSTALL=0
while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) UNINSTALL=1 ;;
        --exec) EXEC="$2"; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "install-desktop.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

refresh() {  # the menus and icon caches read the new files at once where these exist
    if command -v update-desktop-database >/dev/null; then
        update-desktop-database -q "$DATA/applications" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null && [ -f "$ICONS/index.theme" ]; then
        gtk-update-icon-cache -q -t "$ICONS" || true
    fi
}

if [ "$UNINSTALL" = 1 ]; then
    rm -f "$DATA/applications/$ID.desktop" "$DATA/metainfo/$ID.metainfo.xml" \
        "$ICONS/scalable/apps/$ID.svg"
    for size in "${SIZES[@]}"; do rm -f "$ICONS/${size}x${size}/apps/$ID.png"; done
    refresh
    echo "DocBatch removed from the menu of $(id -un)"
    exit 0
fi

if [ -z "$EXEC" ]; then
    if [ -x "$ROOT/.venv/bin/docbatch-gui" ]; then
        EXEC="$ROOT/.venv/bin/docbatch-gui"
    else
        EXEC="docbatch-gui"
    fi
fi
case "$EXEC" in
    *[[:space:]\"\'\\\`\$]*)
        echo "install-desktop.sh: the program's path must not hold spaces or quotes: $EXEC" >&2
        exit 2 ;;
esac

mkdir -p "$DATA/applications" "$DATA/metainfo" "$ICONS/scalable/apps"
sed -e "s|^Exec=docbatch-gui |Exec=$EXEC |" -e "s|^TryExec=docbatch-gui$|TryExec=$EXEC|" \
    "$ROOT/resources/linux/$ID.desktop" >"$DATA/applications/$ID.desktop"
cp "$ROOT/resources/linux/$ID.metainfo.xml" "$DATA/metainfo/$ID.metainfo.xml"
cp "$ROOT/resources/docbatch.svg" "$ICONS/scalable/apps/$ID.svg"
for size in "${SIZES[@]}"; do
    mkdir -p "$ICONS/${size}x${size}/apps"
    cp "$ROOT/resources/icons/docbatch-$size.png" "$ICONS/${size}x${size}/apps/$ID.png"
done
refresh
echo "DocBatch is in the menu of $(id -un): $DATA/applications/$ID.desktop starts $EXEC"
