#!/usr/bin/env bash
# sacrebleu's and NLTK's own test suites against turbobleu's drop-ins and patches (see
# scripts/upstream/suites.py): fetched from the package index, sha256-checked, unpacked under
# build/upstream/. Usage: scripts/upstream_suites.sh [suites.py options]; PYTHON picks the
# interpreter (default: python).
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-python}" scripts/upstream/suites.py "$@"
