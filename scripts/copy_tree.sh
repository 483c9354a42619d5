#!/usr/bin/env bash
# Copy this checkout's source files (tracked and untracked-not-ignored, without built .so and
# generated .c files) into DEST, for a separate build of the extensions there.
# Usage: scripts/copy_tree.sh DEST
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=$1
mkdir -p "$DEST"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | grep -zv '\.\(so\|c\)$' \
    | xargs -0 cp --parents -t "$DEST")
