#!/usr/bin/env bash
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# The benchmarks of issue #11, side by side with the official SDKs, in one command:
#
#   scripts/bench.sh FIGURES.json
#
# Installs what is missing (scripts/install-deps.sh: Debian packages and the npm lockfile, which
# pins the emulators and the SDK peers), builds Release with the tests in build-bench (its own:
# the Install section's build-release is configured without tests), then runs
# tests/bench/peers/bench.js: it starts the emulators itself on free loopback ports, runs every
# benchmark (each figure the median of 5 runs, with min and max), prints a table and writes
# every figure as JSON to FIGURES.json.
#
# Environment: BUILD_DIR (default build-bench), BENCH_RUNS (default 5), BENCH_WINDOW_RUNS (runs
# of benchmarks 4, 5 and 6, default 1: 4 takes about 4 minutes a run), BENCH_QUICK=1 for a smoke run at a
# tiny size, BENCH_PARTS (default create,dynamo,drift,window; add explorer for benchmark 6, the
# window over 100,000 unmanaged containers: seeding them takes 5 to 15 minutes a run, and
# BENCH_EXPLORER_SCALE=0.3 makes it 30,000; add aws for benchmark 8, 1,000 SQS queues and 200 SNS
# topics on moto against a boto3 script, and the requests of a no-change pass over them: about 4
# minutes at 3 runs, 6 at 5; it is skipped, saying why, without moto_server or a Python with
# boto3, found as the tests find moto, or BENCH_PYTHON); add s3 for benchmark 9, 1,000 small S3
# objects and one 1 GiB file (BENCH_S3_FILE_MIB) on moto against boto3 (put_object from 8
# threads; upload_file with 8 MiB parts and 8 threads): about 2.5 minutes a run; add bucket for
# benchmark 9c, the window over a bucket of 100,000 objects (BENCH_S3_LIST_OBJECTS) on moto,
# seeded and listed by boto3: about 12 minutes a window run, most of it seeding; add pubsub for
# benchmark 10, 500 Pub/Sub topics and 500 subscriptions on Google's emulator against a REST
# script (Python's standard library, 8 threads), and the requests of a no-change pass over them.
set -euo pipefail
if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
    sed -n '5,31p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
out=$(realpath -m "$1")
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build-bench}

scripts/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCONVERGE_BUILD_TESTS=ON \
    -DCONVERGE_BENCHMARKS=ON >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)" --target converge bench_barecreate bench_drift \
    bench_window bench_store
exec node tests/bench/peers/bench.js --build "$build_dir" --out "$out" \
    --runs "${BENCH_RUNS:-5}" --window-runs "${BENCH_WINDOW_RUNS:-1}" --quick "${BENCH_QUICK:-0}" \
    --parts "${BENCH_PARTS:-create,dynamo,drift,window}" --explorer-scale "${BENCH_EXPLORER_SCALE:-1}"
