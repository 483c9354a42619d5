#!/usr/bin/env bash
# Race check of turbobleu's own C code with ThreadSanitizer.
#
# Builds the extension modules with -fsanitize=thread into a scratch copy of the source tree,
# then runs 8 threads through every API at once (the task list of tests/test_threads_stress.py,
# plus corpus calls sized to release the GIL for a while) under the ordinary interpreter with
# libtsan preloaded. The interpreter itself is not instrumented, but TSan intercepts the pthread
# mutexes and condition variables of its GIL, so the GIL's ordering is seen; what runs without
# the GIL (the nogil regions) and the per-thread scratch (scratch.h) are checked.
#
# CPython's own code is not instrumented, so it reports nothing itself; a report counts against
# turbobleu when either racing access has a frame in one of its modules or headers (under
# _engine/: their paths and Cython's names for their functions say so). scripts/tsan.supp holds the
# suppressions for the interpreter's and NumPy's own reports (none were needed so far).
#
# Usage: scripts/race_check.sh [--self-test] [python]   (default: python3). Exit status 1 if
# turbobleu's code has a reported race. --self-test first plants a race in the copy (every
# count_segment, which runs without the GIL, increments one global counter) to show that the
# check does report one. Needs gcc (or clang) with libtsan.
set -euo pipefail

SELF_TEST=0
if [ "${1:-}" = "--self-test" ]; then
    SELF_TEST=1
    shift
fi
PYTHON=${1:-python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/turbobleu-tsan.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

LIBTSAN=$(${CC:-gcc} -print-file-name=libtsan.so)
if [ ! -e "$LIBTSAN" ]; then
    echo "race_check: no libtsan.so for ${CC:-gcc}" >&2
    exit 2
fi
LIBTSAN=$(readlink -f "$LIBTSAN")

echo "== building the extensions with -fsanitize=thread in $WORK"
"$ROOT/scripts/copy_tree.sh" "$WORK"
if [ "$SELF_TEST" = 1 ]; then
    echo "== self-test: planting a race in count_segment"
    "$PYTHON" - "$WORK/src/turbobleu/_engine/count/_kernel.pyx" <<'PLANT'
import sys
path = sys.argv[1]
text = open(path).read()
probe = 'cdef extern from *:\n    """static long tb_race_probe;"""\n    long tb_race_probe\n\n\n'
text = text.replace("cdef inline int64_t probe(", probe + "cdef inline int64_t probe(", 1)
start = text.index("cdef void count_segment(")
body = text.index('"""', text.index('"""', start) + 3) + 3    # after its docstring
text = text[:body] + "\n    global tb_race_probe\n    tb_race_probe += 1" + text[body:]
open(path, "w").write(text)
PLANT
fi
(cd "$WORK" && CFLAGS="-fsanitize=thread -g -O1 -fno-omit-frame-pointer" \
    LDFLAGS="-fsanitize=thread" TURBOBLEU_REQUIRE_EXTENSION=1 \
    "$PYTHON" setup.py -q build_ext --inplace >"$WORK/build.log" 2>&1) \
    || { tail -30 "$WORK/build.log"; exit 2; }

echo "== running 8 threads through every API under TSan ($LIBTSAN)"
LOG="$WORK/tsan"
set +e
(cd "$WORK" && LD_PRELOAD="$LIBTSAN" \
    TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 history_size=4 log_path=$LOG suppressions=$ROOT/scripts/tsan.supp" \
    PYTHONPATH=src:tests TURBOBLEU_IMPL=cython "$PYTHON" - <<'EOF'
import logging
import random
import sys
import threading
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.WARNING)
import turbobleu
from test_threads_stress import build_tasks, corpus

tasks = build_tasks()
big_hyps, big_refs = corpus(11, 3000)      # long enough to spend a while without the GIL
tasks["big corpus_bleu"] = lambda: turbobleu.corpus_bleu(big_hyps, big_refs).score
tasks["big corpus_bleu char"] = lambda: turbobleu.corpus_bleu(big_hyps, big_refs,
                                                              tokenize="char").score
tasks["big sentence_scores"] = lambda: turbobleu.BLEU().sentence_scores(big_hyps,
                                                                        big_refs).tolist()
names = sorted(tasks)
want = {name: tasks[name]() for name in names}
wrong, errors = [], []

def run(seed):
    order = names * 3
    random.Random(seed).shuffle(order)
    try:
        for name in order:
            if tasks[name]() != want[name]:
                wrong.append(name)
    except BaseException as exc:
        errors.append(exc)

sys.setswitchinterval(1e-5)
threads = [threading.Thread(target=run, args=(seed,)) for seed in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(f"workload: {len(names)} tasks x 3 rounds x 8 threads; wrong results: {sorted(set(wrong))};"
      f" errors: {errors}")
sys.exit(1 if wrong or errors else 0)
EOF
)
status=$?
set -e

reports=$(cat "$LOG".* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
ours=0
for file in "$LOG".*; do
    [ -e "$file" ] || continue
    # One report per block between WARNING and SUMMARY; ours if any frame names our code.
    ours=$((ours + $(awk '/^WARNING: ThreadSanitizer/ {block=""; on=1}
                          on {block = block "\n" $0}
                          /^SUMMARY: ThreadSanitizer/ {on=0; if (block ~ /_engine/) n++}
                          END {print n+0}' "$file")))
done
echo "== TSan reports: $reports in all, $ours with a frame in turbobleu's code"
if [ "$ours" -gt 0 ]; then
    cat "$LOG".* | awk '/^WARNING: ThreadSanitizer/,/^SUMMARY/' | head -200
fi
if [ "$status" -ne 0 ]; then
    echo "race_check: the workload failed (status $status)" >&2
    exit 1
fi
[ "$ours" -eq 0 ]
