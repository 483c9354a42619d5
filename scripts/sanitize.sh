#!/usr/bin/env bash
# The test suite and the differential fuzz test under AddressSanitizer + UndefinedBehaviorSanitizer.
#
# Builds the extension modules with -fsanitize=address,undefined into a scratch copy of the source
# tree (the checkout's own build is left alone), then runs pytest there with libasan and libubsan
# preloaded into the ordinary interpreter (CPython itself is not instrumented; leak detection is
# off, as CPython's arenas and interned objects read as leaks). Undefined behaviour aborts at its
# first report (-fno-sanitize-recover), as an ASan error does, so any report fails the run; the
# logs are scanned for reports too and their count printed.
#
# Usage: scripts/sanitize.sh [--short] [--cases N] [python]   (default python3)
#   (full)    every test file but the code-quality and packaging ones, then the fuzz test with
#             N cases (default 20000); about 15 minutes on 2 cores.
#   --short   the validation, batch, kernel, reentrancy and self-BLEU tests and 2000 fuzz cases
#             (about 4 minutes on 2 cores: the CI session).
#   --self-test  plants a heap overflow in the copy first, to show that it is reported (exit 1).
# Exit status: 0 clean, 1 a test failed or a sanitizer reported, 2 the build failed. Needs gcc
# (or clang, CC=clang) with libasan and libubsan. SANITIZE_KEEP=1 keeps the scratch copy.
set -euo pipefail

SHORT=0
CASES=20000
SELF_TEST=0
while [ $# -gt 0 ]; do
    case "$1" in
        --short) SHORT=1; CASES=2000; shift ;;
        --self-test) SELF_TEST=1; SHORT=1; CASES=20; shift ;;
        --cases) CASES=$2; shift 2 ;;
        *) break ;;
    esac
done
PYTHON=${1:-python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/turbobleu-asan.XXXXXX")
[ "${SANITIZE_KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

runtime() {  # the sanitizer runtime's shared library, resolved
    local lib
    lib=$(${CC:-gcc} -print-file-name="$1")
    [ -e "$lib" ] || { echo "sanitize: no $1 for ${CC:-gcc}" >&2; exit 2; }
    readlink -f "$lib"
}
LIBASAN=$(runtime libasan.so)
LIBUBSAN=$(runtime libubsan.so)

echo "== building the extensions with -fsanitize=address,undefined in $WORK"
"$ROOT/scripts/copy_tree.sh" "$WORK"
if [ "$SELF_TEST" = 1 ]; then
    echo "== self-test: planting a heap overflow in pack_sequences (the run must fail)"
    "$PYTHON" - "$WORK/src/turbobleu/_engine/count/_pack.pyx" <<'PLANT'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = "    cdef object token\n"
plant = "    cdef int32_t* tb_probe = <int32_t*>malloc(4 * sizeof(int32_t))\n" \
        "    tb_probe[4] = 1\n    free(tb_probe)\n"
assert anchor in text
text = text.replace("def pack_sequences(", "from libc.stdlib cimport free, malloc\n\n\n"
                    "def pack_sequences(", 1)
open(path, "w").write(text.replace(anchor, anchor + plant, 1))
PLANT
fi
start=$(date +%s)
(cd "$WORK" && CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1 \
-fno-omit-frame-pointer" LDFLAGS="-fsanitize=address,undefined" TURBOBLEU_REQUIRE_EXTENSION=1 \
    "$PYTHON" setup.py -q build_ext --inplace >"$WORK/build.log" 2>&1) \
    || { tail -30 "$WORK/build.log"; exit 2; }
echo "   built in $(( $(date +%s) - start )) s"

if [ "$SHORT" = 1 ]; then
    TESTS="tests/test_validation.py tests/test_batch.py tests/test_kernel.py
           tests/test_reentrant_inputs.py tests/test_self_bleu.py tests/test_pad_id_and_empty_arrays.py
           tests/test_ter.py tests/test_ter_wmt23.py"
else
    TESTS="tests --ignore=tests/test_code_quality.py --ignore=tests/test_packaging.py
           --ignore=tests/test_fuzz_differential.py"
fi

LOG="$WORK/output.log"
status=0
run() {  # pytest under the sanitizers; its output (and the reports, on stderr) also to $LOG
    (cd "$WORK" && LD_PRELOAD="$LIBASAN $LIBUBSAN" \
        ASAN_OPTIONS="detect_leaks=0 abort_on_error=1" \
        UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1" \
        PYTHONPATH=src TURBOBLEU_IMPL=cython "$PYTHON" -m pytest -q -p no:cacheprovider "$@" 2>&1) \
        | tee -a "$LOG" || status=1
}
echo "== the suite under the sanitizers ($LIBASAN, $LIBUBSAN)"
start=$(date +%s)
# shellcheck disable=SC2086  # TESTS is a list of arguments
run $TESTS
echo "   suite: $(( $(date +%s) - start )) s"
echo "== the differential fuzz test, $CASES cases"
start=$(date +%s)
TURBOBLEU_FUZZ_CASES=$CASES run -s tests/test_fuzz_differential.py
echo "   fuzz: $(( $(date +%s) - start )) s"

reports=$(grep -cE "ERROR: AddressSanitizer|runtime error:" "$LOG" || true)
echo "== sanitizer reports: $reports"
if [ "$reports" != 0 ]; then
    grep -E -A3 "ERROR: AddressSanitizer|runtime error:" "$LOG" | head -40
    status=1
fi
echo "== exit status $status"
exit $status
