#!/usr/bin/env bash
# Builds the documentation site (docs/, mkdocs.yml) in strict mode: a broken link, a missing page
# or a docstring the API reference cannot render fails the build. The site goes to build/site.
# Needs the docs extra: pip install ".[docs]". The chart and table of the performance page are
# checked against bench/results/ first (python bench/plot_speedups.py rewrites them).
set -euo pipefail
cd "$(dirname "$0")/.."
python bench/plot_speedups.py --check
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --clean "$@"
