#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# The Quick start's two commands, and the steps they are made of.
#
#   scripts/dev.sh run     install what is missing, build, start the emulators on loopback and open
#                          the window on the sample workspace (under Xvfb when there is no display)
#   scripts/dev.sh test    install what is missing, build, and run the test suite (what CI runs)
#   scripts/dev.sh test --long
#                          the same, and the long checks: ThreadSanitizer's build and run of the
#                          engine's tests, every fuzz target for 120 s, the window soak for 300 s,
#                          the benchmarks' pipeline at a tiny size (bench_peers), then the unit
#                          tests 10 runs over, 4 at a time (REPEATS=N)
#   scripts/dev.sh build   install what is missing and build
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default RelWithDebInfo), CMAKE_ARGS (extra
# arguments for CMake, e.g. -DCONVERGE_SANITIZE=ON), CTEST_ARGS (extra arguments for CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build_dir=${BUILD_DIR:-build}
build_type=${BUILD_TYPE:-RelWithDebInfo}

build() {
    scripts/install-deps.sh
    # The benchmarks are built unless a plain `test` says otherwise (BENCHMARKS=OFF).
    local benchmarks=${BENCHMARKS:-ON}
    local werror=OFF
    [ "${CI:-}" = "true" ] && werror=ON
    # shellcheck disable=SC2086
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
        -DCONVERGE_WERROR="$werror" -DCONVERGE_BENCHMARKS="$benchmarks" ${CMAKE_ARGS:-} >/dev/null
    cmake --build "$build_dir" --parallel "$(nproc)"
}

run() {
    build
    local state="$build_dir/quickstart"
    mkdir -p "$state"
    node tests/fixtures/emulators.js start --state "$state" --fixed-ports --dynamo-delay-ms 1500
    # shellcheck disable=SC2064 # expand now: $state is local to this function
    trap "node tests/fixtures/emulators.js stop --state '$state'" EXIT
    local workspace="$state/sample.converge"
    # The sample's secret names its value by reference (resources/samples/local-emulators/
    # aws-services.yaml); a made-up one serves on the emulators.
    export CONVERGE_SAMPLE_DB_PASSWORD=${CONVERGE_SAMPLE_DB_PASSWORD:-sample-password-not-a-secret}
    # The sample manifests go into the workspace; the window's controller reconciles them.
    "$build_dir/bin/converge" apply --workspace "$workspace" -f resources/samples/local-emulators
    local app=("$build_dir/bin/converge" "$workspace")
    if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
        "${app[@]}" "$@"
    else
        echo "No display: the window runs under Xvfb; XAUTHORITY=$state/xauthority lets you look" \
            "(see README, 'Without a display')."
        xvfb-run -a -f "$state/xauthority" -s "-screen 0 1400x900x24" "${app[@]}" "$@"
    fi
}

test_suite() {
    # The long variant builds and runs the benchmarks' pipeline too (bench_peers).
    if [ "${1:-}" = "--long" ]; then BENCHMARKS=ON build; else BENCHMARKS=OFF build; fi
    # The long checks (label long) run only when asked for: they hold both cores for minutes.
    local select=(--label-exclude long)
    if [ "${1:-}" = "--long" ]; then
        select=()
        export CONVERGE_FUZZ_SECONDS=${CONVERGE_FUZZ_SECONDS:-120}
        export CONVERGE_SOAK_SECONDS=${CONVERGE_SOAK_SECONDS:-300}
    fi
    # Every test's output stays in the JUnit report; the failed ones are printed again at the
    # end, where the output of tests still running in parallel cannot bury them.
    local junit="$root/$build_dir/Testing/junit.xml"
    local status=0
    # shellcheck disable=SC2086
    ctest --test-dir "$build_dir" --output-on-failure --output-junit "$junit" \
        --parallel "$(nproc)" "${select[@]}" ${CTEST_ARGS:-} || status=$?
    if [ "$status" -ne 0 ]; then
        python3 scripts/failed-tests.py "$junit"
    elif [ "${1:-}" = "--long" ]; then
        repeat_under_load || status=$?
    fi
    return "$status"
}

# A flaky test fails one run in ten or a hundred, and more often on a busy machine: the unit
# tests, REPEATS runs over (default 10), twice as many at once as there are cores. A loop of
# whole runs, not `ctest --repeat`, which repeats the fixtures' set-up too, while other tests
# run, and so empties the folder their files are in.
repeat_under_load() {
    local repeats=${REPEATS:-10} log="$build_dir/Testing/repeat.log"
    for ((i = 1; i <= repeats; i++)); do
        if ! ctest --test-dir "$build_dir" --label-regex '^unit$' --parallel "$(($(nproc) * 2))" \
            --output-on-failure >"$log" 2>&1; then
            echo "repeat: run $i of the unit tests failed (the whole output: $log):"
            grep -E 'Failed|SEGFAULT|FAIL!' "$log"
            return 1
        fi
    done
    echo "repeat: the unit tests passed $repeats runs in a row under load"
}

case "${1:-}" in
    run) shift; run "$@" ;;
    test) shift; test_suite "$@" ;;
    build) build ;;
    *) sed -n '5,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
