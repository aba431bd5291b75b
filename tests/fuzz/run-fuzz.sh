#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# Builds the fuzz targets with clang-14 (libFuzzer, ASan, UBSan) in BUILD_DIR and runs each for
# CONVERGE_FUZZ_SECONDS (default 30), two at a time, starting from its seed corpus. Fails when a
# target crashes, leaks, times out or trips a sanitizer; the input is left in
# BUILD_DIR/artifacts/<target>/ (add it to tests/fuzz/regressions/<target>/ with the fix).
#
#   tests/fuzz/run-fuzz.sh SOURCE_DIR BUILD_DIR [TARGET…]
set -uo pipefail
src=$(cd "$1" && pwd)
build=$2
mkdir -p "$build"
shift 2
seconds=${CONVERGE_FUZZ_SECONDS:-30}
jobs=${CONVERGE_FUZZ_JOBS:-2}

cxx=$(command -v clang++-14 || true)
if [ -z "$cxx" ]; then
    echo "run-fuzz: clang++-14 is missing (scripts/install-deps.sh installs it)" >&2
    exit 1
fi
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

start=$(date +%s)
cmake -S "$src/tests/fuzz/project" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= \
    -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j "${CONVERGE_FUZZ_BUILD_JOBS:-2}" >"$build/build.log" 2>&1 ||
    { tail -n 60 "$build/build.log" >&2; exit 1; }
built=$(date +%s)
echo "run-fuzz: built in $((built - start)) s"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(manifestreader azurexml dynamodbjson sharedkey sigv4 connectionstring httpresponse awsqueryxml awsrestxml awsrestjson)
fi

run_one() {
    local name=$1
    local work="$build/corpus/$name" artifacts="$build/artifacts/$name/"
    mkdir -p "$work" "$artifacts"
    local seeds=("$src/tests/fuzz/corpus/$name")
    [ -d "$src/tests/fuzz/regressions/$name" ] && seeds+=("$src/tests/fuzz/regressions/$name")
    # New inputs go to the first folder (in the build tree); the seed folders are only read.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts" \
        "$work" "${seeds[@]}" >"$build/$name.log" 2>&1
    local rc=$?
    local execs
    execs=$(grep -m1 'stat::number_of_executed_units' "$build/$name.log" | awk '{print $2}')
    if [ $rc -ne 0 ]; then
        echo "run-fuzz: $name FAILED (exit $rc); input in $artifacts" >&2
        tail -n 60 "$build/$name.log" >&2
        return 1
    fi
    echo "run-fuzz: $name ok, ${execs:-?} runs in ${seconds} s"
}

failed=0
pids=()
names=()
for name in "${targets[@]}"; do
    run_one "$name" &
    pids+=($!)
    names+=("$name")
    if [ ${#pids[@]} -ge "$jobs" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
    fi
done
for pid in "${pids[@]}"; do
    wait "$pid" || failed=1
done
echo "run-fuzz: $(( $(date +%s) - start )) s in all"
exit $failed
