// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The peer of the explorer benchmark: listing every container of an account with the official
// Azure SDK (listContainers by pages of 5,000, the service's largest), timed to the first page
// and to the last. With --seed it first creates --count containers (explorer-000000, …), at
// most --concurrency at a time. Prints one JSON line:
// {seeded, seedSeconds, firstPageSeconds, seconds, listed, pages, requests}.
//
//   node azure-list-containers.js --blob BLOB_ENDPOINT_URL --count 100000 [--seed 1]
'use strict';

const lib = require('./lib');

const options = lib.parseArgs(process.argv.slice(2),
  { blob: '', count: 100000, seed: 0, concurrency: 64 });
const counts = lib.countRequests();
const { BlobServiceClient } = require('@azure/storage-blob');

function since(started) {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main() {
  if (!options.blob) lib.fail('--blob BLOB_ENDPOINT_URL is required');
  const connection = lib.azureConnectionString({ blob: options.blob, queue: options.blob,
    table: options.blob });
  const service = BlobServiceClient.fromConnectionString(connection);
  let seedSeconds = 0;
  if (options.seed) {
    const names = Array.from({ length: options.count },
      (_, i) => `explorer-${String(i).padStart(6, '0')}`);
    const started = process.hrtime.bigint();
    await lib.pool(names, options.concurrency,
      (name) => service.getContainerClient(name).createIfNotExists());
    seedSeconds = since(started);
  }
  const before = counts.requests;
  const started = process.hrtime.bigint();
  let firstPageSeconds = 0;
  let listed = 0;
  let pages = 0;
  for await (const page of service.listContainers().byPage({ maxPageSize: 5000 })) {
    if (pages === 0) firstPageSeconds = since(started);
    pages += 1;
    listed += page.containerItems.length;
  }
  lib.report({ seeded: options.seed ? options.count : 0, seedSeconds, firstPageSeconds,
    seconds: since(started), listed, pages, requests: counts.requests - before });
}

main().catch((err) => lib.fail(`azure-list-containers: ${err.stack || err}`));
