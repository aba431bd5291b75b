#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# The peer of benchmark 9: S3 uploads with boto3, as a script does them, against moto.
#   objects: the bucket made, then --count small objects put from a pool of --threads threads
#            sharing one client (boto3's clients are thread-safe), each body as bench.js writes
#            Converge's `content`;
#   file:    the bucket made, then one file put by upload_file with boto3's multipart settings
#            (8 MiB threshold and parts) and --threads threads;
#   list:    the bucket seeded with --count tiny objects (--threads at once), then listed with
#            list_objects_v2, 1,000 a page: the first page's time and every page's (the peer of
#            the window over the bucket).
# Every HTTP request is counted, retries included. Prints one JSON line: {seconds, requests,
# byOperation}.
#
#   python3 s3-upload.py --endpoint URL --bucket NAME objects --count 1000 [--threads 8]
#   python3 s3-upload.py --endpoint URL --bucket NAME file --path FILE --key KEY [--threads 8]
#   python3 s3-upload.py --endpoint URL --bucket NAME list --count 100000 [--threads 8]
import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.by_operation = {}

    def request_created(self, operation_name=None, **_):
        with self.lock:
            self.requests += 1
            self.by_operation[operation_name] = self.by_operation.get(operation_name, 0) + 1


def main():
    parser = argparse.ArgumentParser(description="benchmark 9's peer: S3 uploads")
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("mode", choices=["objects", "file", "list"])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--path")
    parser.add_argument("--key")
    options = parser.parse_args()
    counter = Counter()
    started = time.perf_counter()
    s3 = boto3.client(
        "s3", endpoint_url=options.endpoint, region_name="us-east-1",
        # moto accepts any key; these are dummies, like Converge's `emulator: true`.
        aws_access_key_id="converge-emulator", aws_secret_access_key="converge-emulator-secret",
        config=Config(max_pool_connections=options.threads, s3={"addressing_style": "path"}))
    s3.meta.events.register("request-created", counter.request_created)
    s3.create_bucket(Bucket=options.bucket)
    if options.mode == "objects":
        def put(n):
            key = "objects/object-%05d.txt" % n
            s3.put_object(Bucket=options.bucket, Key=key, Body=("object %d\n" % n).encode(),
                          ContentType="text/plain")
        with ThreadPoolExecutor(max_workers=options.threads) as pool:
            list(pool.map(put, range(options.count)))  # re-raises the first failure
    elif options.mode == "file":
        s3.upload_file(options.path, options.bucket, options.key,
                       Config=TransferConfig(max_concurrency=options.threads))
    else:
        def seed(n):
            s3.put_object(Bucket=options.bucket, Key="item-%06d.json" % n, Body=b"{}")
        with ThreadPoolExecutor(max_workers=options.threads) as pool:
            list(pool.map(seed, range(options.count)))
        seeded = time.perf_counter() - started
        listed, first, token = 0, None, None
        listing = time.perf_counter()
        while True:
            page = s3.list_objects_v2(Bucket=options.bucket, MaxKeys=1000,
                                      **({"ContinuationToken": token} if token else {}))
            listed += len(page.get("Contents", []))
            if first is None:
                first = time.perf_counter() - listing
            token = page.get("NextContinuationToken")
            if not page.get("IsTruncated"):
                break
        print(json.dumps({"seedSeconds": seeded, "firstPageSeconds": first,
                          "seconds": time.perf_counter() - listing, "listed": listed,
                          "requests": counter.requests}))
        return 0
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "requests": counter.requests,
                      "byOperation": counter.by_operation}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
