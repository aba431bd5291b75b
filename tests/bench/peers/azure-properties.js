// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The peer of benchmark 3: a no-change pass as a script does it with the official Azure SDKs,
// fetching each container's and queue's properties, at most --concurrency at a time. The
// resources must exist (Converge's setup made them). Prints one JSON line:
// {seconds, observed, requests, writes, byMethod}.
//
//   node azure-properties.js --env EMULATORS_ENV --count 10000 [--concurrency 8]
'use strict';

const lib = require('./lib');

const options = lib.parseArgs(process.argv.slice(2), { env: '', count: 10000, concurrency: 8 });
const counts = lib.countRequests();
const { BlobServiceClient } = require('@azure/storage-blob');
const { QueueServiceClient } = require('@azure/storage-queue');

async function main() {
  const connection = lib.azureConnectionString(lib.readEmulators(options.env));
  const blobs = BlobServiceClient.fromConnectionString(connection);
  const queues = QueueServiceClient.fromConnectionString(connection);
  const names = lib.azureNames(options.count, ['container', 'queue']);
  const work = [
    ...names.container.map((name) => () => blobs.getContainerClient(name).getProperties()),
    ...names.queue.map((name) => () => queues.getQueueClient(name).getProperties()),
  ];
  const started = process.hrtime.bigint();
  await lib.pool(work, options.concurrency, (observe) => observe());
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  lib.report({ seconds, observed: work.length, ...counts });
}

main().catch((err) => lib.fail(`azure-properties: ${err.stack || err}`));
