// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The peer of benchmark 1: what a user would script with the official Azure SDKs instead of
// Converge. Creates the same containers, queues and tables as the benchmark's manifest,
// idempotently (createIfNotExists), at most --concurrency at a time, and prints one JSON line:
// {seconds, created, requests, writes, byMethod}.
//
//   node azure-create.js --env EMULATORS_ENV --count 1000 [--concurrency 8]
'use strict';

const lib = require('./lib');

const options = lib.parseArgs(process.argv.slice(2), { env: '', count: 1000, concurrency: 8 });
const counts = lib.countRequests();
const { BlobServiceClient } = require('@azure/storage-blob');
const { QueueServiceClient } = require('@azure/storage-queue');
const { TableServiceClient } = require('@azure/data-tables');

async function main() {
  const connection = lib.azureConnectionString(lib.readEmulators(options.env));
  const blobs = BlobServiceClient.fromConnectionString(connection);
  const queues = QueueServiceClient.fromConnectionString(connection);
  const tables = TableServiceClient.fromConnectionString(connection,
    { allowInsecureConnection: true });
  const names = lib.azureNames(options.count);
  const work = [
    ...names.container.map((name) => () => blobs.getContainerClient(name).createIfNotExists()),
    ...names.queue.map((name) => () => queues.getQueueClient(name).createIfNotExists()),
    // createTable ignores TableAlreadyExists: the SDK's idempotent create.
    ...names.table.map((name) => () => tables.createTable(name)),
  ];
  const started = process.hrtime.bigint();
  await lib.pool(work, options.concurrency, (create) => create());
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  lib.report({ seconds, created: work.length, ...counts });
}

main().catch((err) => lib.fail(`azure-create: ${err.stack || err}`));
