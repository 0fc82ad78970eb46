#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes the loader and linker with libFuzzer for SECONDS (default 60), seeded with small valid
# traces from the generator and the hand-made bad inputs of tests/data/bad. A crash, leak, hang or
# sanitizer report fails the run; the input that caused it is left in build/asan/fuzz/artifacts/.
# The target is built by the asan preset (clang, ASan+UBSan), from the core the ASan tests run.
#   tools/fuzz.sh [SECONDS] [extra libFuzzer options…]     e.g. tools/fuzz.sh 3600 -jobs=2
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true

[[ -f build/asan/build.ninja ]] || cmake --preset asan >/dev/null
cmake --build --preset asan --target fuzz_trace kinetoscope-gentrace

dir=build/asan/fuzz
corpus=$dir/corpus
mkdir -p "$corpus" "$dir/artifacts"
if [[ -z $(ls -A "$corpus") ]]; then
    # Small slices of a generated trace make good seeds: every event kind in a few KB.
    build/asan/tools/kinetoscope-gentrace --steps 1 "$dir/gen-1step.json"
    build/asan/tools/kinetoscope-gentrace --steps 1 --memory "$dir/gen-memory.json"
    for n in 3000 6000 12000; do
        head -c $n "$dir/gen-1step.json" >"$corpus/gen-head-$n.json"
        head -c $n "$dir/gen-memory.json" >"$corpus/gen-memory-head-$n.json"
    done
    # Gzip, of one member and of several (inflated side by side).
    gzip -c <"$corpus/gen-head-6000.json" >"$corpus/gen-head-6000.json.gz"
    for n in 1000 2500; do
        # (head reads the file, not a pipe: no SIGPIPE under pipefail)
        { head -c $n "$dir/gen-1step.json" | gzip -c; head -c $((n + 4000)) "$dir/gen-1step.json" \
            | tail -c 4000 | gzip -1 -c; } >"$corpus/gen-members-$n.json.gz"
    done
    cp tests/data/bad/* "$corpus/" 2>/dev/null || true
fi
echo "== fuzzing for ${seconds}s"
cd "$dir" # with -jobs=N libFuzzer writes its workers' logs (fuzz-K.log) here
rm -f fuzz.log fuzz-*.log
status=0
../tests/fuzz/fuzz_trace corpus -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3000 \
    -max_len=16384 -artifact_prefix=artifacts/ -print_final_stats=1 "$@" >fuzz.log 2>&1 || status=$?
tail -n 25 fuzz.log
shopt -s nullglob
total=$(sed -n 's/^stat::number_of_executed_units: *//p' fuzz.log fuzz-*.log \
    | awk '{ n += $1 } END { print n + 0 }')
echo "== $total executions, exit status $status (logs: $dir/fuzz*.log)"
exit "$status"
