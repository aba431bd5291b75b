#!/usr/bin/env python3
# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
#
# The peer of benchmark 10: Pub/Sub topics and subscriptions created through Pub/Sub's v1 REST
# API as a plain script does it, with Python's standard library only: a pool of --threads
# threads, each with one kept-alive HTTP connection, PUTting every topic and then every
# subscription (a subscription needs its topic) to Google's Pub/Sub emulator. The names come from
# --names, a JSON file {"project": ..., "topics": [...], "subscriptions": [{"name", "topic"}]}
# that bench.js writes for both sides. Prints one JSON line: {seconds, topics, subscriptions,
# requests, writes, byOperation}.
#
#   python3 pubsub-create.py --endpoint http://127.0.0.1:PORT --names NAMES.json [--threads 8]
import argparse
import http.client
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.by_operation = {}

    def add(self, operation):
        with self.lock:
            self.requests += 1
            self.by_operation[operation] = self.by_operation.get(operation, 0) + 1


def main():
    parser = argparse.ArgumentParser(description="benchmark 10's peer: Pub/Sub over REST")
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--names", required=True)
    parser.add_argument("--threads", type=int, default=8)
    options = parser.parse_args()
    with open(options.names, encoding="utf-8") as file:
        names = json.load(file)
    endpoint = urlparse(options.endpoint)
    project = names["project"]
    counter = Counter()
    local = threading.local()

    def put(path, body, operation):
        if not hasattr(local, "connection"):
            local.connection = http.client.HTTPConnection(endpoint.hostname, endpoint.port,
                                                          timeout=30)
        payload = json.dumps(body).encode()
        counter.add(operation)
        local.connection.request("PUT", path, payload, {"Content-Type": "application/json"})
        answer = local.connection.getresponse()
        text = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{operation} {path}: HTTP {answer.status} {text[:200]!r}")

    def topic(name):
        put(f"/v1/projects/{project}/topics/{name}", {}, "CreateTopic")

    def subscription(s):
        put(f"/v1/projects/{project}/subscriptions/{s['name']}",
            {"topic": f"projects/{project}/topics/{s['topic']}", "ackDeadlineSeconds": 30},
            "CreateSubscription")

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=options.threads) as pool:
        list(pool.map(topic, names["topics"]))
        list(pool.map(subscription, names["subscriptions"]))
    seconds = time.monotonic() - start
    print(json.dumps({"seconds": seconds, "topics": len(names["topics"]),
                      "subscriptions": len(names["subscriptions"]),
                      "requests": counter.requests, "writes": counter.requests,
                      "byOperation": counter.by_operation}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
