#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The two set-up commands of the README, for a fresh Debian 12 machine (as root or with sudo):
#   tools/dev.sh run    install missing Debian packages, build, open the window on the demo trace
#   tools/dev.sh test   install missing Debian packages, build, run the whole test suite
#                       (format and clang-tidy checks, release build and tests, the package,
#                       the ASan+UBSan build with the fuzzer, the threaded tests under
#                       ThreadSanitizer, then a short fuzzing run), and the time of each stage
# Later runs rebuild incrementally. Compiles go through ccache and clean clang-tidy results are
# remembered (tools/tidy-cached.py), both under ~/.cache, so a later run on the same machine, in
# this checkout or a fresh clone, repeats only what changed. .ci/run calls "tools/dev.sh test".
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case $mode in
run | test) ;;
*)
    echo "usage: tools/dev.sh run|test" >&2
    exit 1
    ;;
esac

# Each stage's time, printed at the end whatever the outcome: stage NAME ends the running stage.
stage_names=()
stage_times=()
stage_name=""
stage_start=$SECONDS
ccache_before=""
stage() {
    [[ -z $stage_name ]] || { stage_names+=("$stage_name"); stage_times+=($((SECONDS - stage_start))); }
    stage_name=$1
    stage_start=$SECONDS
    [[ -z $1 ]] || echo "== $1"
}
print_stages() {
    stage ""
    echo "== time per stage (seconds)"
    for i in "${!stage_names[@]}"; do
        printf '   %-16s %6d\n' "${stage_names[$i]}" "${stage_times[$i]}"
    done
    printf '   %-16s %6d\n' total "$SECONDS"
    if command -v ccache >/dev/null; then
        ccache --print-stats | awk -v before="$ccache_before" '
            BEGIN { n = split(before, b, " "); for (i = 1; i < n; i += 2) was[b[i]] = b[i + 1] }
            $1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/ { now[$1] = $2 - was[$1] }
            END { printf "   ccache: %d compiles from the cache, %d compiled\n",
                  now["direct_cache_hit"] + now["preprocessed_cache_hit"], now["cache_miss"] }'
    fi
}
[[ $mode == run ]] || trap print_stages EXIT

stage packages
packages=(g++ cmake ninja-build pkg-config python3 ccache fonts-dejavu-core
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev rapidjson-dev zlib1g-dev libisal-dev libzstd-dev libsqlite3-dev)
if [[ $mode == test ]]; then
    # The ASan build and the fuzzer are clang's (llvm-symbolizer names the lines in their
    # reports); the package checks validate the .deb; the report test reads the PDF's text with
    # pdftotext; the Parquet test reads the files back with DuckDB's Node.js package
    # (tools/fetch-duckdb.py: on npm only).
    packages+=(clang libclang-rt-dev llvm clang-format clang-tidy desktop-file-utils appstream dpkg-dev
        file shared-mime-info poppler-utils nodejs)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "== installing Debian packages: ${missing[*]}"
    sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

ccache_before=$(ccache --print-stats | tr '\t\n' '  ')
jobs=$(nproc)
build() { # preset [target…]
    local preset=$1
    shift
    [[ -f build/$preset/build.ninja ]] || cmake --preset "$preset"
    cmake --build --preset "$preset" -j "$jobs" ${1:+--target "$@"}
}

if [[ $mode == run ]]; then
    build release
    if [[ -z ${DISPLAY:-}${WAYLAND_DISPLAY:-}${QT_QPA_PLATFORM:-} ]]; then
        echo "== built; no display here for the window: run this in a desktop session, over ssh -X or under xvfb-run, or see the demo without one: build/release/app/kinetoscope --demo --screenshot demo.png" >&2
        exit 1
    fi
    exec build/release/app/kinetoscope --demo
fi

stage "DuckDB reader"
python3 tools/fetch-duckdb.py
stage format
find core ui app tests tools benchmarks packaging resources -name '*.cpp' -o -name '*.h' \
    | sort | xargs clang-format --dry-run -Werror
stage "release build"
build release
stage "release tests"
ctest --preset release -j "$jobs"
stage clang-tidy
tools/tidy-cached.py build/release core ui app --jobs "$jobs"
stage package
build/release/tools/kinetoscope-gentrace --steps 2 build/release/package-check.pt.trace.json.gz
bash packaging/check-package.sh build/release build/release/package-check.pt.trace.json.gz
stage "ASan build"
build asan
stage "ASan tests"
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --preset asan -j "$jobs"
# ThreadSanitizer: the loader's builder thread, segments and gzip members, the linker's threads,
# a run's parallel loads and databases, the UI's workers.
tsan_tests=(tst_loader tst_linker tst_run tst_database tst_sharedtraces tst_segmentedload tst_gzipseek tst_gzipmembers
    tst_models tst_mainwindow tst_views tst_checkpointing)
stage "TSan build"
build tsan "${tsan_tests[@]}"
stage "TSan tests"
TSAN_OPTIONS="die_after_fork=0 suppressions=$PWD/tools/tsan-suppressions.txt" ctest --preset tsan \
    -j "$jobs" -R '^(tst_loader_builder_thread|tst_linker_builder_thread|tst_run|tst_database|tst_sharedtraces|tst_segmentedload|tst_gzipseek|tst_gzipmembers|tst_models|tst_mainwindow|tst_views|tst_checkpointing)$'
stage fuzz
tools/fuzz.sh 60
stage ""
echo "== all tests passed"
