#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# The engine's, the store's and the manifest's unit tests under ThreadSanitizer (the manifest
# reader parses large streams on two threads): configures the project in BUILD_DIR with
# CONVERGE_SANITIZE=thread, builds only core and the tests of tests/unit/engine, tests/unit/store
# and tests/unit/manifest, and runs them. Any race report fails the test (TSan's exit code 66).
#
# Test functions listed in tests/tsan/skip.txt are left out (each line: executable, function and
# why); everything else of those executables runs.
#
#   tests/tsan/run-tsan.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$(cd "$1" && pwd)
build=$2
mkdir -p "$build"
build=$(cd "$build" && pwd)
dirs=(tests/unit/engine tests/unit/store tests/unit/manifest)

launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
start=$(date +%s)
# No -Werror: GCC warns (-Wtsan) about fences in headers it cannot instrument.
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCONVERGE_SANITIZE=thread \
    -DCONVERGE_TEST_GROUPS=OFF \
    "${launcher[@]}" >"$build/configure.log" 2>&1 ||
    { tail -n 40 "$build/configure.log" >&2; exit 1; }
# The executables are made in tests/ (tests/CMakeLists.txt); with CONVERGE_TEST_GROUPS off,
# one per test, named as the test.
targets=()
for d in "${dirs[@]}"; do
    targets+=($(ctest --test-dir "$build/$d" -N | sed -n 's/^ *Test *#[0-9]*: //p'))
done
cmake --build "$build" -j "${CONVERGE_TSAN_BUILD_JOBS:-2}" --target "${targets[@]}" \
    >"$build/build.log" 2>&1 || { tail -n 60 "$build/build.log" >&2; exit 1; }
built=$(date +%s)
echo "run-tsan: built in $((built - start)) s"

# What converge_add_test gives every test; the folders the secrets fixture would make.
testfiles="$build/tests/testfiles"
cmake -DROOT="$testfiles" -P "$src/tests/secrets/prepare.cmake"
export CONVERGE_TEST_DATA="$src/tests/data" CONVERGE_SOURCE_DIR="$src" TMPDIR="$testfiles/tmp" \
    HOME="$testfiles/home" XDG_CONFIG_HOME="$testfiles/home/.config" \
    XDG_DATA_HOME="$testfiles/home/.local/share" XDG_CACHE_HOME="$testfiles/home/.cache"
# Everything runs 5 to 15 times slower: QtTest's per-function watchdog gets 15 minutes.
export QTEST_FUNCTION_TIMEOUT=900000
export TSAN_OPTIONS="second_deadlock_stack=1 history_size=4 suppressions=$src/tests/tsan/suppressions.txt"

failed=0
for d in "${dirs[@]}"; do
    for exe in $(ctest --test-dir "$build/$d" -N | sed -n 's/^ *Test *#[0-9]*: //p'); do
        args=()
        skip=$(awk -v t="$exe" '$1 == t { print $2 }' "$src/tests/tsan/skip.txt")
        if [ -n "$skip" ]; then
            mapfile -t args < <("$build/tests/$exe" -functions | sed 's/()$//' | grep -vxF "$skip")
        fi
        t0=$(date +%s)
        if "$build/tests/$exe" -silent "${args[@]}"; then
            echo "run-tsan: $exe passed in $(( $(date +%s) - t0 )) s"
        else
            echo "run-tsan: $exe FAILED" >&2
            failed=1
        fi
    done
done
echo "run-tsan: $(( $(date +%s) - start )) s in all"
exit $failed
