#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# The peer of benchmark 8: SQS queues and SNS topics created with boto3, as a script does it:
# CreateQueue and CreateTopic from a pool of --threads threads sharing one client per service
# (boto3's clients are thread-safe), against moto. The names come from --names, a JSON file
# {"queues": [...], "topics": [...]} that bench.js writes for both sides. Every HTTP request is
# counted, retries included (botocore's request-created event fires once per attempt). Prints one
# JSON line: {seconds, queues, topics, requests, writes, byOperation}.
#
#   python3 sqs-sns-create.py --endpoint URL --names NAMES.json [--threads 8]
import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import boto3
from botocore.config import Config

WRITES = ("Create", "Delete", "Set", "Tag", "Untag")


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.writes = 0
        self.by_operation = {}

    def request_created(self, operation_name=None, **_):
        with self.lock:
            self.requests += 1
            if operation_name.startswith(WRITES):
                self.writes += 1
            self.by_operation[operation_name] = self.by_operation.get(operation_name, 0) + 1


def client(service, endpoint, threads, counter):
    made = boto3.client(
        service, endpoint_url=endpoint, region_name="us-east-1",
        # moto accepts any key; these are dummies, like Converge's `emulator: true`.
        aws_access_key_id="converge-emulator", aws_secret_access_key="converge-emulator-secret",
        config=Config(max_pool_connections=threads))
    made.meta.events.register("request-created", counter.request_created)
    return made


def main():
    parser = argparse.ArgumentParser(description="benchmark 8's peer: SQS queues and SNS topics")
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--names", required=True)
    parser.add_argument("--threads", type=int, default=8)
    options = parser.parse_args()
    with open(options.names, encoding="utf-8") as file:
        names = json.load(file)
    counter = Counter()
    sqs = client("sqs", options.endpoint, options.threads, counter)
    sns = client("sns", options.endpoint, options.threads, counter)
    tasks = ([lambda name=name: sqs.create_queue(QueueName=name) for name in names["queues"]]
             + [lambda name=name: sns.create_topic(Name=name) for name in names["topics"]])
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=options.threads) as pool:
        # list() re-raises the first failure.
        list(pool.map(lambda task: task(), tasks))
    seconds = time.perf_counter() - started
    print(json.dumps({
        "seconds": seconds, "queues": len(names["queues"]), "topics": len(names["topics"]),
        "requests": counter.requests, "writes": counter.writes,
        "byOperation": counter.by_operation,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
