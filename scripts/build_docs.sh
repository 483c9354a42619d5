#!/usr/bin/env bash
# Builds the documentation site (docs/, mkdocs.yml) in strict mode: a broken link, a missing page
# or a docstring the API reference cannot render fails the build. The site goes to build/site.
# Needs the docs extra: pip install ".[docs]". The chart and table of the performance page are
# checked against bench/results/ first (python bench/plot_speedups.py rewrites them); the API
# reference's signatures are checked after, to show their type hints.
set -euo pipefail
cd "$(dirname "$0")/.."
python bench/plot_speedups.py --check
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --clean "$@"
site=build/site  # (or the folder given with -d / --site-dir)
args=("$@")
for i in "${!args[@]}"; do
    case ${args[$i]} in
        -d | --site-dir) site=${args[$((i + 1))]:-$site} ;;
        --site-dir=*) site=${args[$i]#--site-dir=} ;;
    esac
done
python scripts/check_api_signatures.py "$site/api/index.html"
