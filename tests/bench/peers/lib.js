// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// What the peer scripts share: the emulator endpoints written by tests/fixtures/emulators.js,
// the resource names both sides create (so that Converge's manifests and the SDK scripts name
// the same set), a pool that keeps N operations in flight, and a request counter.
'use strict';

const fs = require('fs');
const http = require('http');

// The development account that Azurite publishes in its documentation; public, not a secret.
const devAccount = 'devstoreaccount1';
const devKey =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/// --name value pairs; every option must be known and every value present.
function parseArgs(argv, defaults) {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; ++i) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !(name in defaults)) fail(`unknown argument ${argv[i]}`);
    const value = argv[++i];
    if (value === undefined) fail(`--${name} needs a value`);
    options[name] = typeof defaults[name] === 'number' ? Number(value) : value;
    if (Number.isNaN(options[name])) fail(`--${name} takes a number`);
  }
  return options;
}

/// The KEY=VALUE lines of emulators.env.
function readEmulators(file) {
  if (!file) fail('--env EMULATORS_ENV is required (written by tests/fixtures/emulators.js)');
  const env = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  const host = env.CONVERGE_EMULATOR_HOST;
  return {
    host,
    blob: `http://${host}:${env.CONVERGE_AZURITE_BLOB_PORT}/${devAccount}`,
    queue: `http://${host}:${env.CONVERGE_AZURITE_QUEUE_PORT}/${devAccount}`,
    table: `http://${host}:${env.CONVERGE_AZURITE_TABLE_PORT}/${devAccount}`,
    dynamodb: `http://${host}:${env.CONVERGE_DYNALITE_PORT}`,
  };
}

function azureConnectionString(endpoints) {
  return `DefaultEndpointsProtocol=http;AccountName=${devAccount};AccountKey=${devKey};` +
    `BlobEndpoint=${endpoints.blob};QueueEndpoint=${endpoints.queue};` +
    `TableEndpoint=${endpoints.table};`;
}

/// `count` Azure resources split as evenly as possible between containers, queues and tables
/// (or only containers and queues, for the no-change pass); names valid for every service.
function azureNames(count, kinds = ['container', 'queue', 'table']) {
  const names = { container: [], queue: [], table: [] };
  for (let i = 0; i < count; ++i) {
    const kind = kinds[i % kinds.length];
    const n = String(names[kind].length).padStart(5, '0');
    names[kind].push(kind === 'table' ? `benchtable${n}` : `bench-${kind}-${n}`);
  }
  return names;
}

function dynamoNames(count) {
  return Array.from({ length: count }, (_, i) => `BenchTable${String(i).padStart(4, '0')}`);
}

/// Benchmark 8's queues and topics (the boto3 peer reads them from a file bench.js writes).
function sqsSnsNames(queues, topics) {
  const numbered = (count, prefix) =>
    Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  return { queues: numbered(queues, 'bench-queue-'), topics: numbered(topics, 'bench-topic-') };
}

/// Runs `task(item)` for every item with at most `concurrency` in flight; rejects on the first
/// failure after the others in flight have settled.
async function pool(items, concurrency, task) {
  let next = 0;
  let firstError = null;
  const worker = async () => {
    while (next < items.length && !firstError) {
      const item = items[next++];
      try {
        await task(item);
      } catch (err) {
        firstError = firstError || err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (firstError) throw firstError;
}

/// Counts every HTTP request the process sends (retries included), by method. Both SDKs resolve
/// http.request when they send (the Azure SDK through its module object, the AWS SDK on its
/// first request), so this must run before the first request.
function countRequests() {
  const counts = { requests: 0, writes: 0, byMethod: {} };
  const original = http.request;
  http.request = function countedRequest(...args) {
    const req = original.apply(this, args);
    counts.requests += 1;
    counts.byMethod[req.method] = (counts.byMethod[req.method] || 0) + 1;
    if (!['GET', 'HEAD'].includes(req.method)) counts.writes += 1;
    return req;
  };
  return counts;
}

/// The AWS SDK's DescribeTable and the waiter are POSTs that only read: DynamoDB's writes are
/// told apart by their X-Amz-Target.
function countDynamoRequests() {
  const counts = { requests: 0, writes: 0, byTarget: {} };
  const original = http.request;
  http.request = function countedRequest(...args) {
    const req = original.apply(this, args);
    counts.requests += 1;
    const target = String(req.getHeader('x-amz-target') || req.method).replace(/^.*\./, '');
    counts.byTarget[target] = (counts.byTarget[target] || 0) + 1;
    if (/^(Create|Update|Delete|Put|Tag|Untag)/.test(target)) counts.writes += 1;
    return req;
  };
  return counts;
}

function report(result) {
  process.stdout.write(JSON.stringify(result) + '\n');
}

module.exports = {
  devAccount, parseArgs, readEmulators, azureConnectionString, azureNames, dynamoNames,
  sqsSnsNames, pool, countRequests, countDynamoRequests, report, fail,
};
