// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Runs every benchmark of issue #11 side by side with the official SDKs and writes the figures:
//
//   node tests/bench/peers/bench.js --build BUILD_DIR --out FIGURES.json [--runs 5] [--quick 0|1]
//       [--parts create,dynamo,drift,window[,explorer][,aws][,s3][,bucket][,pubsub]]
//       [--window-runs 1]
//       [--explorer-scale 1]
//
// scripts/bench.sh builds Release and calls this. Each timed run of benchmarks 1 and 2 gets
// freshly started emulators (tests/fixtures/emulators.js, dynalite with a 500 ms create delay),
// so that every run creates into an empty backend; the sides take turns, and each timed run
// starts once Azurite has gone idle (settle()). Requests are counted
// by each side (the SDK scripts and the bare client count their own; bench_drift counts
// Converge's through the providers' request observer), and for `converge apply --wait` in one
// extra, untimed pass through a counting proxy (tests/bench/peers/countproxy.js), so that no
// timed run pays for a proxy hop. Benchmark 8 (SQS and SNS on moto, against a boto3 script) uses
// one moto for all its runs, reset before each side's creates; its resync passes (bench_drift) go
// through a counting proxy too, since bench_drift counts Azure's requests only, and are reported
// as requests. --quick 1 is a smoke test at a tiny size (one run).
'use strict';

const childProcess = require('child_process');
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const lib = require('./lib');
const { startProxy } = require('./countproxy');

const root = path.resolve(__dirname, '..', '..', '..');
const options = lib.parseArgs(process.argv.slice(2), {
  build: '', out: '', runs: 5, quick: 0, parts: 'create,dynamo,drift,window', 'window-runs': 1,
  'explorer-scale': 1,
});
const parts = options.parts.split(',');
if (!options.build || !options.out) lib.fail('usage: bench.js --build DIR --out FIGURES.json');
const build = path.resolve(options.build);
const quick = options.quick === 1;
const runs = quick ? 1 : Math.max(1, options.runs);
// Benchmarks 4 and 5 measure over 100,000 resources and 1,000,000 events inside one run and take
// about four minutes a round: one round by default, to stay within the time budget.
const windowRuns = quick ? 1 : Math.max(1, options['window-runs']);
const sizes = quick
  ? { create: 12, dynamo: 4, drift: 20, scale: 0.01, queues: 8, topics: 4, pubsub: 4 }
  : { create: 1000, dynamo: 200, drift: 10000, scale: 1, queues: 1000, topics: 200, pubsub: 500 };
const concurrency = 8;
const state = path.join(build, 'bench');
const emuState = path.join(state, 'emulators');
const converge = path.join(build, 'bin', 'converge');
const benchDir = path.join(build, 'tests', 'bench');

const benchStarted = Date.now();
function log(message) {
  // Seconds since the start: where a run's time goes (emulators' start-ups, warm-ups, passes).
  const at = ((Date.now() - benchStarted) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`bench: ${at} s ${message}\n`);
}

/// The fields of /proc/PID/stat after the command's name (field 3 on), or null for a process
/// that is gone.
function procStat(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

/// CPU seconds of the children this process has waited for (cutime + cstime, fields 16 and 17):
/// across one run(), what that child and its own children spent. run()s never overlap here.
function childrenCpuSeconds() {
  const fields = procStat('self');
  return (Number(fields[13]) + Number(fields[14])) / 100; // USER_HZ
}

/// Runs a program to its end without blocking this process's event loop (the counting proxy
/// lives here); returns its output, exit code and wall-clock seconds. `onLine` is called with each
/// line of its standard output as it arrives.
function run(program, args, extraEnv = {}, onLine = null) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const cpuBefore = childrenCpuSeconds();
    const child = childProcess.spawn(program, args, {
      cwd: state, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!onLine) return;
      const lines = (partial + d).split('\n');
      partial = lines.pop();
      for (const line of lines) onLine(line);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (err) => resolve({ code: -1, stdout, stderr: String(err), seconds: 0 }));
    child.on('close', (code) => resolve({
      code, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9,
      cpu: childrenCpuSeconds() - cpuBefore,
    }));
  });
}

function check(result, what) {
  if (result.code !== 0) {
    throw new Error(`${what} failed (exit ${result.code}):\n${result.stdout.slice(-2000)}\n` +
      result.stderr.slice(-4000));
  }
  return result;
}

/// The counters must agree with what was done, or the figures explain nothing.
function expect(condition, message) {
  if (!condition) throw new Error(`implausible figures: ${message}`);
}

function lastJson(text) {
  const lines = text.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

async function startEmulators() {
  check(await run(process.execPath, [path.join(root, 'tests', 'fixtures', 'emulators.js'),
    'start', '--state', emuState, '--dynamo-delay-ms', '500']), 'starting the emulators');
  return path.join(emuState, 'emulators.env');
}

/// Waits until Azurite (or the emulator whose PID `pidKey` names) has been idle for half a second
/// (at most 30 s): a timed run must not share the CPU with what the emulator still does for the
/// run before it (LokiJS saving its collections, garbage collection). Both sides wait the same way.
async function settle(envFile, pidKey = 'CONVERGE_AZURITE_PID') {
  const pid = readEnv(envFile)[pidKey];
  if (!pid) return;
  const ticks = () => {
    const fields = procStat(pid);
    return fields && Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14, 15)
  };
  const deadline = Date.now() + 30000;
  let before = ticks();
  while (before !== null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = ticks();
    if (now === null || now - before <= 2) return; // at most 4% of a core
    before = now;
  }
}

/// CPU seconds (user + system) a process and its descendants have spent so far: what an emulator
/// did for a side's run is the difference across it. moto serves on one core at a time (Python's
/// lock), so the CPU it spends on the script's creates alone is a floor under any client's time.
function cpuSeconds(envFile, pidKey) {
  const pid = readEnv(envFile)[pidKey];
  if (!pid) return null;
  const stats = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    const fields = /^\d+$/.test(entry) ? procStat(entry) : null; // null: gone meanwhile
    if (!fields) continue;
    stats.set(entry, { ppid: fields[1], ticks: Number(fields[11]) + Number(fields[12]) });
  }
  let ticks = 0;
  const queue = [String(pid)];
  while (queue.length) {
    const at = queue.pop();
    if (stats.has(at)) ticks += stats.get(at).ticks;
    for (const [child, s] of stats) if (s.ppid === at) queue.push(child);
  }
  return ticks / 100; // USER_HZ
}

/// Where timedOnServer() records a benchmark's CPU seconds, per side.
function cpuRecord() {
  return { converge: { server: [], client: [] }, peer: { server: [], client: [] } };
}

/// Runs `body` (a side's run) and records the CPU seconds the emulator spent meanwhile and those
/// of the side's own process: `cpu` is { server: [], client: [] }.
async function timedOnServer(envFile, pidKey, cpu, body) {
  const before = cpuSeconds(envFile, pidKey);
  const result = await body();
  const after = cpuSeconds(envFile, pidKey);
  if (before !== null && after !== null) cpu.server.push(after - before);
  if (result.cpu !== undefined) cpu.client.push(result.cpu);
  return result;
}

async function stopEmulators() {
  await run(process.execPath,
    [path.join(root, 'tests', 'fixtures', 'emulators.js'), 'stop', '--state', emuState]);
}

function freshWorkspace(name) {
  const file = path.join(state, `${name}.converge`);
  for (const suffix of ['', '-wal', '-shm', '-journal', '.lock'])
    fs.rmSync(file + suffix, { force: true });
  return file;
}

/// The StorageAccount `bench` on the emulators at `endpoints`, as a manifest document.
function accountDocument(endpoints) {
  return `apiVersion: azure.converge.dev/v1
kind: StorageAccount
metadata: {name: bench}
spec:
  accountName: ${lib.devAccount}
  endpoints: {blob: '${endpoints.blob}', queue: '${endpoints.queue}', table: '${endpoints.table}'}
  credential: {emulator: true}
`;
}

function azureManifest(file, endpoints, names) {
  const docs = [accountDocument(endpoints)];
  const kinds = { container: 'BlobContainer', queue: 'Queue', table: 'Table' };
  for (const [kind, list] of Object.entries(names)) {
    for (const name of list) {
      // Table names allow no hyphen and are case-insensitive: the object is named in lower case.
      docs.push(`apiVersion: azure.converge.dev/v1\nkind: ${kinds[kind]}\nmetadata: {name: ` +
        `${name.toLowerCase()}}\nspec: {owner: {name: bench}, azureName: ${name}}\n`);
    }
  }
  fs.writeFileSync(file, docs.join('---\n'));
}

/// An account, `containers` containers and `count` small blobs spread over them, each declared
/// with its content, type and metadata (what a list page shows).
function blobsManifest(file, endpoints, count, containers) {
  const docs = [accountDocument(endpoints)];
  for (let c = 0; c < containers; ++c) {
    docs.push(`apiVersion: azure.converge.dev/v1\nkind: BlobContainer\nmetadata: ` +
      `{name: bench-blobs-${c}}\nspec: {owner: {name: bench}}\n`);
  }
  for (let i = 0; i < count; ++i) {
    const c = i % containers;
    const n = String(i).padStart(5, '0');
    docs.push(`apiVersion: azure.converge.dev/v1\nkind: Blob\nmetadata: {name: blob-${n}}\n` +
      `spec: {owner: {name: bench-blobs-${c}}, azureName: 'b/${n}.txt', content: 'blob ${n}', ` +
      `contentType: text/plain, metadata: {n: '${n}'}}\n`);
  }
  fs.writeFileSync(file, docs.join('---\n'));
}

/// The AwsAccount `bench` on the emulator at `endpoint`, as a manifest document.
function awsAccountDocument(endpoint) {
  return `apiVersion: aws.converge.dev/v1
kind: AwsAccount
metadata: {name: bench}
spec: {region: us-east-1, endpoint: '${endpoint}', credential: {emulator: true}}
`;
}

function dynamoManifest(file, endpoint, names) {
  const docs = [awsAccountDocument(endpoint)];
  for (const name of names) {
    docs.push(`apiVersion: aws.converge.dev/v1
kind: DynamoDBTable
metadata: {name: ${name.toLowerCase()}}
spec:
  owner: {name: bench}
  tableName: ${name}
  attributeDefinitions: [{attributeName: pk, attributeType: S}]
  keySchema: [{attributeName: pk, keyType: HASH}]
  billingMode: PAY_PER_REQUEST
`);
  }
  fs.writeFileSync(file, docs.join('---\n'));
}

/// `converge apply --wait` of a manifest into a fresh workspace: seconds, events stored.
async function convergeApply(name, manifest) {
  const workspace = freshWorkspace(name);
  const applied = check(await run(converge, ['apply', '--workspace', workspace, '-f', manifest,
    '--wait=14m', '-q']), `converge apply --wait (${name})`);
  const events = check(await run(converge, ['events', '--workspace', workspace, '--limit', '0',
    '-o', 'jsonl']), 'converge events');
  const lines = events.stdout.split('\n').filter((l) => l.trim());
  const occurrences = lines.reduce((sum, l) => sum + (JSON.parse(l).count || 1), 0);
  return { seconds: applied.seconds, cpu: applied.cpu, workspace, events: lines.length,
    occurrences };
}

/// The same `apply --wait` once more, untimed, through counting proxies.
async function countConvergeApply(name, ports, writeManifest) {
  const proxies = {};
  for (const [service, port] of Object.entries(ports)) proxies[service] = await startProxy(port);
  const endpoints = {};
  for (const [service, proxy] of Object.entries(proxies)) {
    endpoints[service] = `http://127.0.0.1:${proxy.port}` +
      (service === 'dynamodb' ? '' : `/${lib.devAccount}`);
  }
  const manifest = path.join(state, `${name}.yaml`);
  writeManifest(manifest, endpoints);
  const result = await convergeApply(name, manifest);
  const counts = { requests: 0, writes: 0, byMethod: {} };
  for (const proxy of Object.values(proxies)) {
    counts.requests += proxy.counts.requests;
    counts.writes += proxy.counts.writes;
    for (const [m, n] of Object.entries(proxy.counts.byMethod))
      counts.byMethod[m] = (counts.byMethod[m] || 0) + n;
    await proxy.close();
  }
  return { ...counts, events: result.events, occurrences: result.occurrences };
}

/// The KEY=VALUE lines of emulators.env.
function readEnv(envFile) {
  const env = {};
  for (const line of fs.readFileSync(envFile, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

function readPorts(envFile) {
  const env = readEnv(envFile);
  return {
    blob: Number(env.CONVERGE_AZURITE_BLOB_PORT), queue: Number(env.CONVERGE_AZURITE_QUEUE_PORT),
    table: Number(env.CONVERGE_AZURITE_TABLE_PORT), dynamodb: Number(env.CONVERGE_DYNALITE_PORT),
  };
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: values };
}

/// stats() of one figure over the runs of a benchmark (each run's JSON object).
function statsOf(list, key) {
  return stats(list.map((x) => x[key]));
}

// --- Benchmarks ---------------------------------------------------------------------------------

async function benchCreate() {
  const names = lib.azureNames(sizes.create);
  const sides = { converge: [], peer: [], bare: [] };
  let events = null;
  let peerCounts = null;
  let bareCounts = null;
  for (let r = 0; r < runs; ++r) {
    log(`1. ${sizes.create} Azure resources, run ${r + 1} of ${runs}`);
    let env = await startEmulators();
    const manifest = path.join(state, 'create.yaml');
    azureManifest(manifest, lib.readEmulators(env), names);
    await settle(env);
    const applied = await convergeApply('create', manifest);
    sides.converge.push(applied.seconds);
    events = { stored: applied.events, occurrences: applied.occurrences };

    env = await startEmulators();
    await settle(env);
    const peer = check(await run(process.execPath, [path.join(__dirname, 'azure-create.js'),
      '--env', env, '--count', String(sizes.create), '--concurrency', String(concurrency)]),
    'the SDK script');
    sides.peer.push(peer.seconds);
    peerCounts = lastJson(peer.stdout);

    env = await startEmulators();
    await settle(env);
    const out = path.join(state, 'barecreate.json');
    const bare = check(await run(path.join(benchDir, 'bench_barecreate'),
      [env, String(sizes.create), String(concurrency), out]), 'bench_barecreate');
    sides.bare.push(bare.seconds);
    bareCounts = JSON.parse(fs.readFileSync(out, 'utf8'));
  }
  log('1. counting the requests of converge apply --wait');
  const env = await startEmulators();
  const counted = await countConvergeApply('create-counted', readPorts(env),
    (file, endpoints) => azureManifest(file, endpoints, names));
  await stopEmulators();
  expect(peerCounts.requests >= sizes.create, `the SDK script sent ${peerCounts.requests} requests`);
  expect(counted.writes >= sizes.create, `converge apply sent ${counted.writes} writes`);
  expect(bareCounts.created === sizes.create, `the bare client created ${bareCounts.created}`);
  const c = stats(sides.converge);
  const p = stats(sides.peer);
  const b = stats(sides.bare);
  return [{
    name: `1. ${sizes.create} fresh containers, queues and tables on Azurite`,
    unit: 's', converge: c, peer: p, ratio: c.median / p.median, goal: 'ratio <= 0.70',
    met: c.median / p.median <= 0.70,
    counts: {
      resources: sizes.create, concurrency,
      convergeRequests: counted.requests, convergeWrites: counted.writes,
      convergeByMethod: counted.byMethod, eventsStored: events.stored,
      eventOccurrences: events.occurrences,
      peerRequests: peerCounts.requests, peerWrites: peerCounts.writes,
      peerByMethod: peerCounts.byMethod,
    },
    note: 'wall clock of the whole process: converge apply --wait on a fresh workspace (the ' +
      'account too) against node azure-create.js (createIfNotExists, SDK load included)',
  }, {
    name: '1b. the same creates by the bare HttpClient (the emulator\'s limit)',
    unit: 's', converge: c, peer: b, ratio: c.median / b.median, goal: 'ratio <= 1.10',
    met: c.median / b.median <= 1.10,
    counts: { bareRequests: bareCounts.requests, bareWrites: bareCounts.writes,
      bareFailures: bareCounts.failures },
    note: 'peer here is bench_barecreate: 8 threads, each an HttpClient, no reconcile logic',
  }];
}

async function benchDynamo() {
  const names = lib.dynamoNames(sizes.dynamo);
  const sides = { converge: [], peer: [] };
  let events = null;
  let peerCounts = null;
  for (let r = 0; r < runs; ++r) {
    log(`2. ${sizes.dynamo} DynamoDB tables, run ${r + 1} of ${runs}`);
    let env = await startEmulators();
    const manifest = path.join(state, 'dynamo.yaml');
    dynamoManifest(manifest, lib.readEmulators(env).dynamodb, names);
    const applied = await convergeApply('dynamo', manifest);
    sides.converge.push(applied.seconds);
    events = { stored: applied.events, occurrences: applied.occurrences };

    env = await startEmulators();
    const peer = check(await run(process.execPath, [path.join(__dirname, 'dynamodb-create.js'),
      '--env', env, '--count', String(sizes.dynamo), '--concurrency', String(concurrency)]),
    'the AWS SDK script');
    sides.peer.push(peer.seconds);
    peerCounts = lastJson(peer.stdout);
  }
  log('2. counting the requests of converge apply --wait');
  const env = await startEmulators();
  const counted = await countConvergeApply('dynamo-counted', { dynamodb: readPorts(env).dynamodb },
    (file, endpoints) => dynamoManifest(file, endpoints.dynamodb, names));
  await stopEmulators();
  expect(counted.byMethod.CreateTable === sizes.dynamo,
    `converge apply sent ${counted.byMethod.CreateTable} CreateTable`);
  expect(peerCounts.byTarget.CreateTable === sizes.dynamo,
    `the SDK script sent ${peerCounts.byTarget.CreateTable} CreateTable`);
  const c = stats(sides.converge);
  const p = stats(sides.peer);
  return [{
    name: `2. ${sizes.dynamo} DynamoDB tables to ACTIVE on dynalite (500 ms create delay)`,
    unit: 's', converge: c, peer: p, ratio: c.median / p.median, goal: 'ratio <= 0.05',
    met: c.median / p.median <= 0.05,
    counts: {
      tables: sizes.dynamo, concurrency,
      convergeRequests: counted.requests, convergeWrites: counted.writes,
      convergeByTarget: counted.byMethod, eventsStored: events.stored,
      eventOccurrences: events.occurrences,
      peerRequests: peerCounts.requests, peerWrites: peerCounts.writes,
      peerByTarget: peerCounts.byTarget,
    },
    note: 'wall clock of the whole process; the SDK waiter polls every 500 ms like Converge ' +
      '(its default, 20 s, would make the script far slower)',
  }];
}

async function benchDrift() {
  log(`3. setting up ${sizes.drift} containers and queues (converge apply --wait)`);
  const env = await startEmulators();
  const names = lib.azureNames(sizes.drift, ['container', 'queue']);
  const manifest = path.join(state, 'drift.yaml');
  azureManifest(manifest, lib.readEmulators(env), names);
  const setup = await convergeApply('drift', manifest);
  await settle(env);
  log(`3. ${runs} resync passes of Converge's controller`);
  const out = path.join(state, 'drift.json');
  check(await run(path.join(benchDir, 'bench_drift'), [setup.workspace, String(runs), out]),
    'bench_drift');
  const drift = JSON.parse(fs.readFileSync(out, 'utf8'));
  const peerRuns = [];
  let peerCounts = null;
  // Like Converge's start-up pass (untimed), a first pass of the script warms it and the
  // emulator's path for it.
  for (let r = 0; r <= runs; ++r) {
    log(r === 0 ? '3. the SDK script\'s warm-up pass (untimed, like Converge\'s start-up pass)'
      : `3. the SDK script's no-change pass, run ${r} of ${runs}`);
    await settle(env);
    const peer = check(await run(process.execPath, [path.join(__dirname, 'azure-properties.js'),
      '--env', env, '--count', String(sizes.drift), '--concurrency', String(concurrency)]),
    'the SDK script');
    peerCounts = lastJson(peer.stdout);
    if (r > 0) peerRuns.push(peerCounts.seconds);
  }
  // 3c: blobs in 2 containers, observed by their containers' list pages, in emulators of their
  // own (row 3's 5,000 containers would make the account's listing a page longer).
  log(`3c. setting up ${sizes.drift} blobs in 2 containers (converge apply --wait)`);
  const blobEnv = await startEmulators();
  const blobManifest = path.join(state, 'drift-blobs.yaml');
  blobsManifest(blobManifest, lib.readEmulators(blobEnv), sizes.drift, 2);
  const blobSetup = await convergeApply('drift-blobs', blobManifest);
  await settle(blobEnv);
  log(`3c. ${runs} resync passes over the blobs`);
  const blobOut = path.join(state, 'drift-blobs.json');
  check(await run(path.join(benchDir, 'bench_drift'), [blobSetup.workspace, String(runs),
    blobOut]), 'bench_drift (blobs)');
  const blobs = JSON.parse(fs.readFileSync(blobOut, 'utf8'));
  await stopEmulators();
  expect(peerCounts.requests === sizes.drift, `the SDK script sent ${peerCounts.requests}`);
  expect(drift.passes.every((x) => x.reconciles >= drift.resources && x.requests > 0),
    'a resync pass observed less than every resource');
  const c = stats(drift.passes.map((p) => p.seconds));
  const p = stats(peerRuns);
  const pass = drift.passes[drift.passes.length - 1];
  const writes = drift.passes.reduce((sum, x) => sum + x.writes, 0);
  const restart = stats(drift.restarts.map((x) => x.seconds));
  const restartWrites = drift.restarts.reduce((sum, x) => sum + x.writes, 0);
  const restartRequests = Math.max(...drift.restarts.map((x) => x.requests));
  const last = drift.restarts[drift.restarts.length - 1];
  return [{
    name: `3. a no-change pass over ${drift.resources - 1} managed containers and queues`,
    unit: 's', converge: c, peer: p, ratio: c.median / p.median,
    goal: 'zero backend writes, ratio <= 0.05', met: writes === 0 && c.median / p.median <= 0.05,
    counts: {
      resources: drift.resources, concurrency,
      convergeRequests: pass.requests, convergeLists: pass.lists, convergeWrites: writes,
      eventsStored: pass.events, reconciles: pass.reconciles,
      skippedUnchanged: pass.skippedUnchanged,
      peerRequests: peerCounts.requests, peerWrites: peerCounts.writes,
      convergeCpuSeconds: stats(drift.passes.map((x) => x.cpuSeconds)),
      setupSeconds: setup.seconds, startupPassSeconds: drift.startup.seconds,
      startupPassRequests: drift.startup.requests,
    },
    note: 'Converge: a resync pass of a running controller (bench_drift, Controller::resyncNow ' +
      'to idle); peer: getProperties of each resource (in-script time, SDK load excluded)',
  }, {
    name: `3b. the first pass after a restart over the same ${drift.resources - 1} resources`,
    unit: 's', converge: restart, peer: null, ratio: null,
    goal: '<= 0.3 s, zero writes, as few requests as a later pass',
    met: restart.median <= 0.3 && restartWrites === 0 && restartRequests <= pass.requests,
    counts: {
      resources: drift.resources, convergeRequests: restartRequests,
      convergeLists: last.lists, convergeWrites: restartWrites,
      reconciles: last.reconciles, skippedUnchanged: last.skippedUnchanged,
      laterPassRequests: pass.requests,
      convergeCpuSeconds: stats(drift.restarts.map((x) => x.cpuSeconds)),
    },
    note: 'bench_drift: after its passes, a fresh Controller over the same workspace, start() to ' +
      'idle (opening the workspace, the memo of quiet runs, the first resync by list pages)',
  }, blobRow(blobs, blobSetup, pass.requests)];
}

/// Row 3c: the blobs' passes. The account's own requests (its get and its lists of containers,
/// queues and tables) are those of row 3's pass; the rest are the blobs' own.
function blobRow(blobs, setup, accountRequests) {
  const c = stats(blobs.passes.map((x) => x.seconds));
  const pass = blobs.passes[blobs.passes.length - 1];
  const writes = [...blobs.passes, ...blobs.restarts].reduce((sum, x) => sum + x.writes, 0);
  const count = blobs.resources - 3; // the account and the 2 containers
  const blobRequests = Math.max(...blobs.passes.map((x) => x.requests)) - accountRequests;
  return {
    name: `3c. a no-change pass over ${count} blobs in 2 containers`,
    unit: 's', converge: c, peer: null, ratio: null,
    goal: '<= 1 request per 5,000 blobs, zero writes',
    // A list page per 5,000 blobs of each container (Azure's largest page).
    met: writes === 0 && blobRequests <= 2 * Math.ceil(count / 2 / 5000),
    counts: {
      blobs: count, convergeRequests: pass.requests, convergeLists: pass.lists,
      blobRequests, convergeWrites: writes, reconciles: pass.reconciles,
      skippedUnchanged: pass.skippedUnchanged,
      convergeCpuSeconds: stats(blobs.passes.map((x) => x.cpuSeconds)),
      setupSeconds: setup.seconds, startupPassSeconds: blobs.startup.seconds,
      startupPassRequests: blobs.startup.requests,
      restartPassSeconds: stats(blobs.restarts.map((x) => x.seconds)),
      restartPassRequests: Math.max(...blobs.restarts.map((x) => x.requests)),
    },
    note: 'Converge: a resync pass of a running controller over blobs declared with their ' +
      'content (bench_drift); blobRequests: the pass\'s requests less the account\'s own (row 3)',
  };
}

async function benchWindowAndStore() {
  const env = { CONVERGE_BENCH_SCALE: String(sizes.scale), QT_QPA_PLATFORM: 'offscreen' };
  const windowParts = { tree: [], live: [], history: [] };
  const store = [];
  for (let r = 0; r < windowRuns; ++r) {
    for (const part of Object.keys(windowParts)) {
      log(`4. the window, ${part}, run ${r + 1} of ${windowRuns}`);
      const out = path.join(state, `window-${part}.json`);
      check(await run(path.join(benchDir, 'bench_window'), [out, part], env), 'bench_window');
      windowParts[part].push(JSON.parse(fs.readFileSync(out, 'utf8'))[part]);
    }
    log(`5. the store, run ${r + 1} of ${windowRuns}`);
    const out = path.join(state, 'store.json');
    check(await run(path.join(benchDir, 'bench_store'), [out], env), 'bench_store');
    store.push(JSON.parse(fs.readFileSync(out, 'utf8')));
  }
  const tree = windowParts.tree[0];
  const storeEvents = statsOf(store, 'eventsPerSecond');
  const storePeer = statsOf(store, 'peerEventsPerSecond');
  const bytes = statsOf(store, 'bytesPerEvent');
  const peerBytes = statsOf(store, 'peerBytesPerEvent');
  const firstPaint = statsOf(windowParts.tree, 'firstPaintMs');
  const loadStall = statsOf(windowParts.tree, 'maxStallMs');
  const liveStall = statsOf(windowParts.live, 'maxStallMs');
  return [
    { name: `4a. the window: ${tree.resources} resources to first paint`, unit: 'ms',
      converge: firstPaint, peer: null, ratio: null, goal: '<= 500 ms',
      met: firstPaint.median <= 500,
      counts: { resources: tree.resources, bytesPerRow: tree.bytesPerRow } },
    { name: `4d. the window: longest GUI stall while the rest of the ${tree.resources} load ` +
        'after the first paint', unit: 'ms',
      converge: loadStall, peer: null, ratio: null, goal: '<= 16 ms',
      met: loadStall.median <= 16,
      counts: { allRowsMs: statsOf(windowParts.tree, 'allRowsMs').median,
        p99StallMs: statsOf(windowParts.tree, 'p99StallMs').median } },
    { name: '4b. the window: longest GUI stall while 10,000 events a second arrive', unit: 'ms',
      converge: liveStall, peer: null, ratio: null, goal: '<= 16 ms',
      met: liveStall.median <= 16,
      counts: { eventsPerSecond: windowParts.live[0].eventsPerSecond,
        rowsInsertedPerSecond: windowParts.live[0].rowsInsertedPerSecond } },
    { name: `4c. the window: ${windowParts.history[0].events} events, log panel open`, unit: 'ms',
      converge: statsOf(windowParts.history, 'openMs'), peer: null, ratio: null, goal: 'report only',
      met: null, counts: { scrollToEndMs: windowParts.history[0].scrollToEndMs,
        msPerPage: windowParts.history[0].msPerPage } },
    { name: '5a. the store: events written per second', unit: 'events/s', converge: storeEvents,
      peer: storePeer, ratio: storeEvents.median / storePeer.median,
      goal: 'ratio >= 0.80 (peer: bare QSqlQuery inserts)',
      met: storeEvents.median / storePeer.median >= 0.80,
      counts: { events: store[0].events, batchSize: store[0].batchSize } },
    { name: '5b. the store: bytes on disk per event', unit: 'B', converge: bytes, peer: peerBytes,
      ratio: bytes.median / peerBytes.median, goal: 'ratio <= 1.0 (peer: a minimal table)',
      met: bytes.median / peerBytes.median <= 1.0,
      counts: { workspaceBytes: store[0].workspaceBytes } },
  ];
}

// 6: the window as an explorer of an account of 100,000 containers nothing manages (seeded by the
// SDK peer, which lists them too: bench_window starts a private Azurite for it). Seeding takes
// minutes, so it runs only when asked for (--parts …,explorer), as many times as 4 and 5.
async function benchExplorer() {
  // Seeding 100,000 containers takes about 14 minutes on 2 cores: --explorer-scale 0.3 seeds
  // 30,000 in about 1.
  const scale = quick ? sizes.scale : Number(options['explorer-scale']);
  const env = { CONVERGE_BENCH_SCALE: String(scale), QT_QPA_PLATFORM: 'offscreen' };
  const list = [];
  for (let r = 0; r < windowRuns; ++r) {
    log(`6. the window as an explorer, run ${r + 1} of ${windowRuns} (seeding takes minutes)`);
    const out = path.join(state, 'window-explorer.json');
    check(await run(path.join(benchDir, 'bench_window'), [out, 'explorer'], env), 'bench_window');
    list.push(JSON.parse(fs.readFileSync(out, 'utf8')).explorer);
  }
  const pick = (key) => statsOf(list, key);
  const e = list[0];
  const first = pick('firstRowSeconds');
  const sdkFirst = pick('sdkFirstPageSeconds');
  const all = pick('allRowsSeconds');
  const sdkAll = pick('sdkSeconds');
  const stall = pick('maxStallMs');
  const refreshStall = pick('refreshMaxStallMs');
  return [
    { name: `6a. the window: ${e.containers} unmanaged containers, start to the first row ` +
        '(peer: listContainers, first page)', unit: 's', converge: first, peer: sdkFirst,
      ratio: first.median / sdkFirst.median, goal: 'first rows within 1 s', met: first.median <= 1,
      counts: { sdkPages: e.sdkPages, bytesPerRow: pick('bytesPerRow') } },
    { name: `6b. the window: ${e.containers} unmanaged containers, start to the last row ` +
        '(peer: listContainers, every page)', unit: 's', converge: all, peer: sdkAll,
      ratio: all.median / sdkAll.median, goal: 'report only', met: null,
      counts: { refreshSeconds: pick('refreshSeconds'),
        rowsAfterRefresh: list.map((x) => x.rowsAfterRefresh) } },
    { name: '6c. the window: longest GUI stall while they stream in at start', unit: 'ms',
      converge: stall, peer: null, ratio: null, goal: '<= 16 ms', met: stall.median <= 16,
      counts: { p99StallMs: pick('p99StallMs') } },
    { name: '6d. the window: longest GUI stall during a Refresh of the account', unit: 'ms',
      converge: refreshStall, peer: null, ratio: null, goal: '<= 16 ms',
      met: refreshStall.median <= 16, counts: { refreshSeconds: pick('refreshSeconds') } },
  ];
}

// 8: SQS queues and SNS topics on moto, `converge apply --wait` against a boto3 script with 8
// threads, then resync passes over them. moto is one process for all the runs, reset before each
// side's creates; the sides take turns, and each starts once moto is idle.

function sqsSnsManifest(file, endpoint, names) {
  const docs = [awsAccountDocument(endpoint)];
  for (const name of names.queues) {
    docs.push(`apiVersion: aws.converge.dev/v1\nkind: SQSQueue\nmetadata: {name: ${name}}\n` +
      `spec: {owner: {name: bench}, queueName: ${name}}\n`);
  }
  for (const name of names.topics) {
    docs.push(`apiVersion: aws.converge.dev/v1\nkind: SNSTopic\nmetadata: {name: ${name}}\n` +
      `spec: {owner: {name: bench}, name: ${name}}\n`);
  }
  fs.writeFileSync(file, docs.join('---\n'));
}

/// moto forgets every resource it holds.
function resetMoto(port) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/moto-api/reset' },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve()
          : reject(new Error(`moto's reset answered HTTP ${res.statusCode}`))));
      });
    req.on('error', reject);
    req.end();
  });
}

/// The Python that has boto3: BENCH_PYTHON when set; else the one moto_server runs on (moto needs
/// boto3: its script's #! line names it), else python3 on PATH. { path } or { missing: why }.
async function findBoto3(motoServer) {
  const candidates = [];
  if (process.env.BENCH_PYTHON) {
    candidates.push(process.env.BENCH_PYTHON);
  } else {
    try {
      const words = fs.readFileSync(motoServer, 'utf8').split('\n')[0].replace(/^#!/, '')
        .trim().split(/\s+/);
      const interpreter = path.basename(words[0]) === 'env' ? words[1] : words[0];
      if (interpreter && !candidates.includes(interpreter)) candidates.push(interpreter);
    } catch {
      // Not a script of its own (or not readable): PATH's python3 is all there is to try.
    }
    candidates.push('python3');
  }
  for (const python of candidates) {
    if ((await run(python, ['-c', 'import boto3'])).code === 0) return { path: python };
  }
  return { missing: `no Python with boto3 (tried ${candidates.join(', ')}): pip install boto3, ` +
    'or set BENCH_PYTHON to a Python that has it' };
}

function copyCounts(counts) {
  return JSON.parse(JSON.stringify(counts));
}

/// What a counting proxy saw between two copies of its counts.
function countsBetween(before, after) {
  const minus = (a, b) => Object.fromEntries(Object.entries(a)
    .map(([k, n]) => [k, n - (b[k] || 0)]).filter(([, n]) => n > 0));
  return {
    requests: after.requests - before.requests, writes: after.writes - before.writes,
    byOperation: minus(after.byMethod, before.byMethod),
    byService: minus(after.byService, before.byService),
  };
}

/// CPU seconds of each side's runs: the emulator's (serverCpuSeconds) and the side's own process
/// (clientCpuSeconds). The emulator's for the script's requests alone bound any client's time
/// from below: on a server that computes on one core at a time (moto: Python's lock) by that CPU
/// (serverFloorRatio: it over the script's time); on a machine of `cores` cores shared by both, by
/// (the emulator's CPU + the client's) / cores.
function serverCounts(cpu, peer) {
  if (!cpu.converge.server.length) return {};
  const of = (list) => (list.length ? stats(list) : null);
  const server = { converge: of(cpu.converge.server), peer: of(cpu.peer.server) };
  return {
    serverCpuSeconds: server,
    clientCpuSeconds: { converge: of(cpu.converge.client), peer: of(cpu.peer.client) },
    cores: os.cpus().length,
    serverFloorRatio: server.peer && peer ? server.peer.median / peer.median : null,
  };
}

function skippedRow(name, goal, why) {
  return { name, unit: 's', converge: null, peer: null, ratio: null, goal, met: null,
    skipped: why };
}

async function benchAws() {
  const names = lib.sqsSnsNames(sizes.queues, sizes.topics);
  const what = `${names.queues.length} SQS queues and ${names.topics.length} SNS topics on moto`;
  const createName = `8a. ${what}: apply --wait vs a boto3 script, 8 threads`;
  const createGoal = 'ratio <= 0.70';
  const passName = `8b. a no-change pass over the same ${what} (requests sent)`;
  const listPages = {
    // ListQueues: up to 1,000 a page (the kind's limit); ListTopics: 100 a page, fixed by SNS,
    // and moto answers a full page with a NextToken, so 200 topics are 3 pages there.
    ListQueues: Math.max(1, Math.ceil(names.queues.length / 1000)),
    ListTopics: Math.floor(names.topics.length / 100) + 1,
  };
  const passGoal = `one list walk per kind (${listPages.ListQueues} ListQueues, ` +
    `${listPages.ListTopics} ListTopics), zero writes`;
  const env = await startEmulators();
  const vars = readEnv(env);
  if (vars.CONVERGE_MOTO_MISSING) {
    log(`8. skipped: ${vars.CONVERGE_MOTO_MISSING}`);
    await stopEmulators();
    return [skippedRow(createName, createGoal, vars.CONVERGE_MOTO_MISSING),
      skippedRow(passName, passGoal, vars.CONVERGE_MOTO_MISSING)];
  }
  const port = Number(vars.CONVERGE_MOTO_PORT);
  const endpoint = `http://127.0.0.1:${port}`;
  const python = await findBoto3(vars.CONVERGE_MOTO_SERVER);
  if (python.missing) log(`8. the boto3 script is skipped: ${python.missing}`);
  const manifest = path.join(state, 'aws.yaml');
  sqsSnsManifest(manifest, endpoint, names);
  const namesFile = path.join(state, 'aws-names.json');
  fs.writeFileSync(namesFile, JSON.stringify(names));
  const peerScript = (file) => run(python.path, [path.join(__dirname, 'sqs-sns-create.py'),
    '--endpoint', endpoint, '--names', file, '--threads', String(concurrency)]);

  // moto loads a service's code on its first request, and the first run of each side would pay
  // for it: both sides warm up first, untimed, on a few queues and topics.
  log('8. warming up moto and both sides (untimed)');
  const warmNames = lib.sqsSnsNames(2, 2);
  warmNames.queues = warmNames.queues.map((n) => `warm-${n}`);
  warmNames.topics = warmNames.topics.map((n) => `warm-${n}`);
  const warmManifest = path.join(state, 'aws-warm.yaml');
  sqsSnsManifest(warmManifest, endpoint, warmNames);
  await convergeApply('aws-warm', warmManifest);
  if (python.path) {
    const warmFile = path.join(state, 'aws-warm-names.json');
    fs.writeFileSync(warmFile, JSON.stringify(warmNames));
    check(await peerScript(warmFile), 'the boto3 script (warm-up)');
  }

  const sides = { converge: [], peer: [] };
  const cpu = cpuRecord();
  let peerCounts = null;
  for (let r = 0; r < runs; ++r) {
    log(`8. ${what}, run ${r + 1} of ${runs}`);
    await resetMoto(port);
    await settle(env, 'CONVERGE_MOTO_PID');
    sides.converge.push((await timedOnServer(env, 'CONVERGE_MOTO_PID', cpu.converge,
      () => convergeApply('aws', manifest))).seconds);
    if (!python.path) continue;
    await resetMoto(port);
    await settle(env, 'CONVERGE_MOTO_PID');
    const peer = check(await timedOnServer(env, 'CONVERGE_MOTO_PID', cpu.peer,
      () => peerScript(namesFile)), 'the boto3 script');
    sides.peer.push(peer.seconds);
    peerCounts = lastJson(peer.stdout);
  }

  // Untimed: the same apply through a counting proxy, then bench_drift's passes over what it
  // made (a start-up pass, `runs` resync passes, `runs` first passes of a fresh controller),
  // each pass's requests told apart by the line bench_drift prints when it ends.
  log('8. counting the requests of converge apply --wait and of the resync passes');
  await resetMoto(port);
  const proxy = await startProxy(port);
  const countedManifest = path.join(state, 'aws-counted.yaml');
  sqsSnsManifest(countedManifest, `http://127.0.0.1:${proxy.port}`, names);
  const setup = await convergeApply('aws-counted', countedManifest);
  const applied = countsBetween({ requests: 0, writes: 0, byMethod: {}, byService: {} },
    proxy.counts);
  await settle(env, 'CONVERGE_MOTO_PID');
  const marks = [copyCounts(proxy.counts)];
  const out = path.join(state, 'aws-drift.json');
  const drift = await run(path.join(benchDir, 'bench_drift'), [setup.workspace, String(runs), out],
    {}, (line) => {
      if (/^bench_drift: .*\bpass\b.*\bover\b/.test(line)) marks.push(copyCounts(proxy.counts));
    });
  await proxy.close();
  await stopEmulators();
  check(drift, 'bench_drift (SQS and SNS)');
  const passes = JSON.parse(fs.readFileSync(out, 'utf8'));
  expect(marks.length === 2 + 2 * runs, `bench_drift printed ${marks.length - 1} passes`);
  const counted = marks.slice(1).map((m, i) => countsBetween(marks[i], m));
  const resyncs = counted.slice(1, 1 + runs);
  const restarts = counted.slice(1 + runs);

  expect(applied.byOperation.CreateQueue === names.queues.length &&
    applied.byOperation.CreateTopic === names.topics.length,
  `converge apply sent ${applied.byOperation.CreateQueue} CreateQueue, ` +
    `${applied.byOperation.CreateTopic} CreateTopic`);
  if (peerCounts) {
    expect(peerCounts.byOperation.CreateQueue === names.queues.length &&
      peerCounts.byOperation.CreateTopic === names.topics.length,
    `the boto3 script sent ${JSON.stringify(peerCounts.byOperation)}`);
  }
  expect(passes.passes.every((x) => x.reconciles >= passes.resources),
    'a resync pass observed less than every resource');
  // Per kind: a pass's requests for SQS and SNS, and whether each is its list walk and no more.
  // The rest are the account's own, to the other services (its discovery's listings).
  const perKind = (pass) => {
    const { sqs = 0, sns = 0, ...others } = pass.byService;
    return {
      SQSQueue: { requests: sqs, listPages: pass.byOperation.ListQueues || 0 },
      SNSTopic: { requests: sns, listPages: pass.byOperation.ListTopics || 0 },
      otherServices: others,
    };
  };
  const walkOnly = (pass) => {
    const kinds = perKind(pass);
    return pass.writes === 0 &&
      kinds.SQSQueue.requests === kinds.SQSQueue.listPages &&
      kinds.SQSQueue.listPages <= listPages.ListQueues &&
      kinds.SNSTopic.requests === kinds.SNSTopic.listPages &&
      kinds.SNSTopic.listPages <= listPages.ListTopics;
  };
  const c = stats(sides.converge);
  const p = python.path ? stats(sides.peer) : null;
  const requests = stats(resyncs.map((x) => x.requests));
  const last = resyncs[resyncs.length - 1];
  return [{
    name: createName, unit: 's', converge: c, peer: p, ratio: p ? c.median / p.median : null,
    goal: createGoal, met: p ? c.median / p.median <= 0.70 : null,
    ...(python.missing ? { skipped: `the boto3 script: ${python.missing}` } : {}),
    counts: {
      queues: names.queues.length, topics: names.topics.length, concurrency,
      convergeRequests: applied.requests, convergeWrites: applied.writes,
      convergeByOperation: applied.byOperation, convergeByService: applied.byService,
      peerRequests: peerCounts ? peerCounts.requests : null,
      peerWrites: peerCounts ? peerCounts.writes : null,
      peerByOperation: peerCounts ? peerCounts.byOperation : null,
      peerInScriptSeconds: peerCounts ? peerCounts.seconds : null,
      python: python.path || null,
      ...serverCounts(cpu, p),
    },
    note: 'wall clock of the whole process on both sides (converge apply --wait: reading and ' +
      'storing the manifest, the controller, every resource Ready; the script: Python, boto3 ' +
      'and its clients, every create answered); moto reset before each side',
  }, {
    name: passName, unit: 'requests', converge: requests, peer: null, ratio: null,
    goal: passGoal, met: resyncs.every(walkOnly),
    counts: {
      resources: passes.resources, convergeRequests: last.requests, convergeWrites: last.writes,
      perKind: perKind(last), byOperation: last.byOperation,
      reconciles: passes.passes[passes.passes.length - 1].reconciles,
      skippedUnchanged: passes.passes[passes.passes.length - 1].skippedUnchanged,
      passSeconds: stats(passes.passes.map((x) => x.seconds)),
      startupPass: { requests: counted[0].requests, byOperation: counted[0].byOperation },
      restartPassRequests: Math.max(...restarts.map((x) => x.requests)),
      restartPassByOperation: restarts[restarts.length - 1].byOperation,
      setupSeconds: setup.seconds,
    },
    note: 'bench_drift\'s resync passes (Controller::resyncNow to idle) through a counting proxy ' +
      'in front of moto: the requests each pass sends, by kind and operation; passSeconds ' +
      'include the proxy\'s hop',
  }];
}

// 10: Pub/Sub on Google's emulator: topics and subscriptions (each naming a topic) made by
// `converge apply --wait` against a plain REST script (Python's standard library, 8 threads),
// and a no-change pass over them (requests sent). The emulator keeps what it holds: each side of
// each run gets a project of its own instead of a reset.
function pubsubNames(project, count) {
  const numbered = (prefix) =>
    Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  const topics = numbered('bench-topic-');
  return { project, topics,
    subscriptions: topics.map((topic, i) => ({ name: `bench-sub-${String(i).padStart(4, '0')}`,
      topic })) };
}

function pubsubManifest(file, endpoint, names) {
  const docs = [`apiVersion: gcp.converge.dev/v1\nkind: GcpProject\nmetadata: {name: bench-gcp}\n` +
    `spec: {projectId: ${names.project}, endpoints: {pubsub: '${endpoint}'}, ` +
    'credential: {emulator: true}}\n'];
  for (const name of names.topics) {
    docs.push(`apiVersion: gcp.converge.dev/v1\nkind: PubSubTopic\nmetadata: {name: ${name}}\n` +
      'spec: {owner: {name: bench-gcp}}\n');
  }
  for (const s of names.subscriptions) {
    docs.push(`apiVersion: gcp.converge.dev/v1\nkind: PubSubSubscription\n` +
      `metadata: {name: ${s.name}}\nspec: {owner: {name: bench-gcp}, ` +
      `topicRef: {name: ${s.topic}}, ackDeadlineSeconds: 30}\n`);
  }
  fs.writeFileSync(file, docs.join('---\n'));
}

async function benchPubSub() {
  const count = sizes.pubsub;
  const what = `${count} Pub/Sub topics and ${count} subscriptions on Google's emulator`;
  const createName = `10a. ${what}: apply --wait vs a REST script, 8 threads`;
  const createGoal = 'ratio <= 0.70';
  const passName = `10b. a no-change pass over the same ${what} (requests sent)`;
  const passGoal = 'one list walk per kind, zero writes, no read of a single resource';
  const env = await startEmulators();
  const vars = readEnv(env);
  if (vars.CONVERGE_PUBSUB_MISSING) {
    log(`10. skipped: ${vars.CONVERGE_PUBSUB_MISSING}`);
    await stopEmulators();
    return [skippedRow(createName, createGoal, vars.CONVERGE_PUBSUB_MISSING),
      skippedRow(passName, passGoal, vars.CONVERGE_PUBSUB_MISSING)];
  }
  const port = Number(vars.CONVERGE_PUBSUB_PORT);
  const endpoint = `http://127.0.0.1:${port}`;
  const peerScript = (file) => run('python3', [path.join(__dirname, 'pubsub-create.py'),
    '--endpoint', endpoint, '--names', file, '--threads', String(concurrency)]);
  const side = (label, r, n = count) => pubsubNames(`bench-${label}-${r}-${Date.now() % 100000}`, n);

  // The emulator's Java warms up on its first requests: both sides first, untimed, a few each.
  log('10. warming up the emulator and both sides (untimed)');
  const warmManifest = path.join(state, 'pubsub-warm.yaml');
  pubsubManifest(warmManifest, endpoint, side('warm-converge', 0, 4));
  await convergeApply('pubsub-warm', warmManifest);
  const warmFile = path.join(state, 'pubsub-warm.json');
  fs.writeFileSync(warmFile, JSON.stringify(side('warm-peer', 0, 4)));
  check(await peerScript(warmFile), 'the REST script (warm-up)');

  const sides = { converge: [], peer: [] };
  const cpu = cpuRecord();
  let peerCounts = null;
  for (let r = 0; r < runs; ++r) {
    log(`10. ${what}, run ${r + 1} of ${runs}`);
    const manifest = path.join(state, 'pubsub.yaml');
    pubsubManifest(manifest, endpoint, side('converge', r));
    await settle(env, 'CONVERGE_PUBSUB_PID');
    sides.converge.push((await timedOnServer(env, 'CONVERGE_PUBSUB_PID', cpu.converge,
      () => convergeApply('pubsub', manifest))).seconds);
    const namesFile = path.join(state, 'pubsub-names.json');
    fs.writeFileSync(namesFile, JSON.stringify(side('peer', r)));
    await settle(env, 'CONVERGE_PUBSUB_PID');
    const peer = check(await timedOnServer(env, 'CONVERGE_PUBSUB_PID', cpu.peer,
      () => peerScript(namesFile)), 'the REST script');
    sides.peer.push(peer.seconds);
    peerCounts = lastJson(peer.stdout);
  }

  // Untimed: the same apply through a counting proxy, then bench_drift's passes over it.
  log('10. counting the requests of converge apply --wait and of the resync passes');
  const proxy = await startProxy(port);
  const countedManifest = path.join(state, 'pubsub-counted.yaml');
  pubsubManifest(countedManifest, `http://127.0.0.1:${proxy.port}`, side('counted', 0));
  const setup = await convergeApply('pubsub-counted', countedManifest);
  const applied = countsBetween({ requests: 0, writes: 0, byMethod: {}, byService: {} },
    proxy.counts);
  const marks = [copyCounts(proxy.counts)];
  const out = path.join(state, 'pubsub-drift.json');
  const drift = await run(path.join(benchDir, 'bench_drift'), [setup.workspace, String(runs), out],
    {}, (line) => {
      if (/^bench_drift: .*\bpass\b.*\bover\b/.test(line)) marks.push(copyCounts(proxy.counts));
    });
  await proxy.close();
  await stopEmulators();
  check(drift, 'bench_drift (Pub/Sub)');
  const passes = JSON.parse(fs.readFileSync(out, 'utf8'));
  expect(marks.length === 2 + 2 * runs, `bench_drift printed ${marks.length - 1} passes`);
  const counted = marks.slice(1).map((m, i) => countsBetween(marks[i], m));
  const resyncs = counted.slice(1, 1 + runs);
  expect(applied.byOperation['PUT topics/*'] === count &&
    applied.byOperation['PUT subscriptions/*'] === count,
  `converge apply sent ${JSON.stringify(applied.byOperation)}`);
  // A pass is a walk of each kind's list and nothing else: no PUT, PATCH, DELETE, no GET of one.
  const walkOnly = (pass) => pass.writes === 0 &&
    Object.keys(pass.byOperation).every((op) => op === 'GET topics' ||
      op === 'GET subscriptions') && (pass.byOperation['GET topics'] || 0) >= 1 &&
    (pass.byOperation['GET subscriptions'] || 0) >= 1;
  const c = stats(sides.converge);
  const p = stats(sides.peer);
  const requests = stats(resyncs.map((x) => x.requests));
  const last = resyncs[resyncs.length - 1];
  return [{
    name: createName, unit: 's', converge: c, peer: p, ratio: c.median / p.median,
    goal: createGoal, met: c.median / p.median <= 0.70,
    counts: {
      topics: count, subscriptions: count, concurrency,
      convergeRequests: applied.requests, convergeWrites: applied.writes,
      convergeByOperation: applied.byOperation,
      peerRequests: peerCounts.requests, peerByOperation: peerCounts.byOperation,
      peerInScriptSeconds: peerCounts.seconds,
      ...serverCounts(cpu, p),
    },
    note: 'wall clock of the whole process on both sides (converge apply --wait: reading and ' +
      'storing the manifest, the controller, every resource Ready; the script: Python, every ' +
      'create answered); a project of its own for each side of each run',
  }, {
    name: passName, unit: 'requests', converge: requests, peer: null, ratio: null,
    goal: passGoal, met: resyncs.every(walkOnly),
    counts: {
      resources: passes.resources, convergeRequests: last.requests, convergeWrites: last.writes,
      byOperation: last.byOperation,
      reconciles: passes.passes[passes.passes.length - 1].reconciles,
      skippedUnchanged: passes.passes[passes.passes.length - 1].skippedUnchanged,
      passSeconds: stats(passes.passes.map((x) => x.seconds)),
      startupPass: { requests: counted[0].requests, byOperation: counted[0].byOperation },
      setupSeconds: setup.seconds,
    },
    note: 'bench_drift\'s resync passes (Controller::resyncNow to idle) through a counting proxy ' +
      'in front of the emulator: the requests each pass sends, by method and collection',
  }];
}

// 9: S3 uploads on moto, `converge apply --wait` against a boto3 script: many small objects (8
// threads), and one large file (boto3's upload_file, its 8 MiB parts, 8 threads). moto is reset
// before each side; the sides take turns.

function s3Manifest(file, endpoint, bucket, objects) {
  const docs = [awsAccountDocument(endpoint),
    `apiVersion: aws.converge.dev/v1\nkind: S3Bucket\nmetadata: {name: ${bucket}}\n` +
    `spec: {owner: {name: bench}, name: ${bucket}}\n`];
  for (const o of objects) {
    docs.push(`apiVersion: aws.converge.dev/v1\nkind: S3Object\nmetadata: {name: ${o.name}}\n` +
      `spec: {owner: {name: ${bucket}}, key: ${o.key}, contentType: text/plain, ` +
      `${o.file ? `contentFile: ${JSON.stringify(o.file)}` : `content: ${JSON.stringify(o.content)}`}}\n`);
  }
  fs.writeFileSync(file, docs.join('---\n'));
}

async function benchS3() {
  const count = quick ? 20 : 1000;
  const bigMiB = quick ? 24 : Number(process.env.BENCH_S3_FILE_MIB || 1024);
  const objectsName = `9a. ${count} small S3 objects on moto: apply --wait vs boto3 put_object, ` +
    `${concurrency} threads`;
  const fileName = `9b. one ${bigMiB} MiB file to S3 on moto: apply --wait vs boto3 upload_file ` +
    `(8 MiB parts, ${concurrency} threads)`;
  const goal = 'ratio <= 0.70';
  const env = await startEmulators();
  const vars = readEnv(env);
  if (vars.CONVERGE_MOTO_MISSING) {
    await stopEmulators();
    return [skippedRow(objectsName, goal, vars.CONVERGE_MOTO_MISSING),
      skippedRow(fileName, goal, vars.CONVERGE_MOTO_MISSING)];
  }
  const port = Number(vars.CONVERGE_MOTO_PORT);
  const endpoint = `http://127.0.0.1:${port}`;
  const python = await findBoto3(vars.CONVERGE_MOTO_SERVER);
  if (python.missing) log(`9. the boto3 script is skipped: ${python.missing}`);
  const peer = (args) => run(python.path, [path.join(__dirname, 's3-upload.py'),
    '--endpoint', endpoint, '--threads', String(concurrency), ...args]);

  const objects = [];
  for (let n = 0; n < count; ++n) {
    const id = String(n).padStart(5, '0');
    objects.push({ name: `object-${id}`, key: `objects/object-${id}.txt`, content: `object ${n}\n` });
  }
  const objectsManifest = path.join(state, 's3-objects.yaml');
  s3Manifest(objectsManifest, endpoint, 'bench-objects', objects);
  // The large file, the same bytes for both sides: pseudo-random, so that nothing compresses.
  const bigFile = path.join(state, `s3-${bigMiB}mib.bin`);
  if (!fs.existsSync(bigFile) || fs.statSync(bigFile).size !== bigMiB * 2 ** 20) {
    const fd = fs.openSync(bigFile, 'w');
    const chunk = Buffer.alloc(2 ** 20);
    for (let i = 0; i < bigMiB; ++i) {
      require('crypto').randomFillSync(chunk);
      fs.writeSync(fd, chunk);
    }
    fs.closeSync(fd);
  }
  const fileManifest = path.join(state, 's3-file.yaml');
  s3Manifest(fileManifest, endpoint, 'bench-file',
    [{ name: 'large', key: 'large/file.bin', file: bigFile }]);

  log('9. warming up moto and both sides (untimed)');
  const warmManifest = path.join(state, 's3-warm.yaml');
  s3Manifest(warmManifest, endpoint, 'bench-warm', objects.slice(0, 2));
  await convergeApply('s3-warm', warmManifest);
  if (python.path) check(await peer(['--bucket', 'bench-warm-peer', 'objects', '--count', '2']),
    'the boto3 script (warm-up)');

  const sides = { objects: { converge: [], peer: [] }, file: { converge: [], peer: [] } };
  const cpu = { objects: cpuRecord(), file: cpuRecord() };
  const peerCounts = {};
  for (let r = 0; r < runs; ++r) {
    for (const part of ['objects', 'file']) {
      log(`9. S3 ${part}, run ${r + 1} of ${runs}`);
      await resetMoto(port);
      await settle(env, 'CONVERGE_MOTO_PID');
      sides[part].converge.push((await timedOnServer(env, 'CONVERGE_MOTO_PID',
        cpu[part].converge, () => convergeApply(`s3-${part}`,
          part === 'objects' ? objectsManifest : fileManifest))).seconds);
      if (!python.path) continue;
      await resetMoto(port);
      await settle(env, 'CONVERGE_MOTO_PID');
      const args = part === 'objects'
        ? ['--bucket', 'bench-objects', 'objects', '--count', String(count)]
        : ['--bucket', 'bench-file', 'file', '--path', bigFile, '--key', 'large/file.bin'];
      const done = check(await timedOnServer(env, 'CONVERGE_MOTO_PID', cpu[part].peer,
        () => peer(args)), `the boto3 script (${part})`);
      sides[part].peer.push(done.seconds);
      peerCounts[part] = lastJson(done.stdout);
    }
  }
  await stopEmulators();
  const row = (name, part) => {
    const c = stats(sides[part].converge);
    const p = python.path ? stats(sides[part].peer) : null;
    return {
      name, unit: 's', converge: c, peer: p, ratio: p ? c.median / p.median : null, goal,
      met: p ? c.median / p.median <= 0.70 : null,
      ...(python.missing ? { skipped: `the boto3 script: ${python.missing}` } : {}),
      counts: { peerRequests: peerCounts[part] ? peerCounts[part].requests : null,
        peerByOperation: peerCounts[part] ? peerCounts[part].byOperation : null,
        peerInScriptSeconds: peerCounts[part] ? peerCounts[part].seconds : null,
        ...serverCounts(cpu[part], p) },
      note: 'wall clock of the whole process on both sides, the bucket made by each; moto reset ' +
        'before each side',
    };
  };
  return [row(objectsName, 'objects'), row(fileName, 'file')];
}

// --- 9c: the window over a bucket of many objects --------------------------------------------

// The window over an S3 bucket of BENCH_S3_LIST_OBJECTS objects (default 100,000) in moto,
// seeded by the boto3 peer, which lists it too (list_objects_v2, 1,000 a page): from opening the
// bucket's row to its first object row, then scrolled to the last, and the longest GUI stall
// meanwhile (bench_window's bucket part). Seeding 100,000 objects takes about ten minutes.
async function benchBucket() {
  const listObjects = quick ? 600 : Number(process.env.BENCH_S3_LIST_OBJECTS || 100000);
  const bucketName = `9c. the window: a bucket of ${listObjects} objects, opened to the first ` +
    'object row (peer: list_objects_v2, first page)';
  const stallName = '9d. the window: longest GUI stall while the bucket\'s rows come, scrolled ' +
    'to the last';
  const env = await startEmulators();
  const vars = readEnv(env);
  if (vars.CONVERGE_MOTO_MISSING) {
    await stopEmulators();
    return [skippedRow(bucketName, 'first rows within 1 s', vars.CONVERGE_MOTO_MISSING),
      skippedRow(stallName, '<= 16 ms', vars.CONVERGE_MOTO_MISSING)];
  }
  const port = Number(vars.CONVERGE_MOTO_PORT);
  const endpoint = `http://127.0.0.1:${port}`;
  const python = await findBoto3(vars.CONVERGE_MOTO_SERVER);
  const peer = (args) => run(python.path, [path.join(__dirname, 's3-upload.py'),
    '--endpoint', endpoint, '--threads', String(concurrency), ...args]);
  let listRows = [skippedRow(bucketName, 'first rows within 1 s', 'no Python with boto3'),
    skippedRow(stallName, '<= 16 ms', 'no Python with boto3')];
  if (python.path) {
    const windows = [];
    let sdk = null;
    for (let r = 0; r < windowRuns; ++r) {
      log(`9c. the window over a bucket of ${listObjects} objects, run ${r + 1} of ${windowRuns} ` +
        '(seeding takes minutes)');
      await resetMoto(port);
      await settle(env, 'CONVERGE_MOTO_PID');
      sdk = lastJson(check(await peer(['--bucket', 'bench-listing', 'list', '--count',
        String(listObjects)]), 'the boto3 script (list)').stdout);
      const out = path.join(state, 'window-bucket.json');
      const shown = check(await run(path.join(benchDir, 'bench_window'), [out, 'bucket'], {
        QT_QPA_PLATFORM: 'offscreen', CONVERGE_BENCH_S3_ENDPOINT: endpoint,
        CONVERGE_BENCH_S3_BUCKET: 'bench-listing', CONVERGE_BENCH_S3_OBJECTS: String(listObjects),
        CONVERGE_BENCH_S3_SDK_FIRST: String(sdk.firstPageSeconds),
        CONVERGE_BENCH_S3_SDK_ALL: String(sdk.seconds) }), 'bench_window (bucket)');
      // What kept the GUI thread longest, for whoever looks into a stall.
      for (const line of shown.stdout.split('\n').filter((l) => /^ {2}\S/.test(l))) log(line);
      windows.push(JSON.parse(fs.readFileSync(out, 'utf8')).bucket);
    }
    const first = statsOf(windows, 'firstRowSeconds');
    const sdkFirst = statsOf(windows, 'sdkFirstPageSeconds');
    const stall = statsOf(windows, 'maxStallMs');
    listRows = [{ name: bucketName, unit: 's', converge: first, peer: sdkFirst,
      ratio: first.median / sdkFirst.median, goal: 'first rows within 1 s',
      met: first.median <= 1,
      counts: { allRowsSeconds: statsOf(windows, 'allRowsSeconds'),
        sdkAllPagesSeconds: statsOf(windows, 'sdkSeconds'), seedSeconds: sdk.seedSeconds } },
    { name: stallName, unit: 'ms', converge: stall, peer: null, ratio: null, goal: '<= 16 ms',
      met: stall.median <= 16, counts: { p99StallMs: statsOf(windows, 'p99StallMs') } }];
  }
  await stopEmulators();
  return listRows;
}

// --- Report -------------------------------------------------------------------------------------

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length, cpuModel: cpus[0] ? cpus[0].model.trim() : 'unknown',
    memoryGB: Math.round(os.totalmem() / 2 ** 30), os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

function format(value, unit) {
  if (value === null || value === undefined) return '-';
  if (unit === 's') return `${value.toFixed(2)} s`;
  if (unit === 'ms') return `${value.toFixed(1)} ms`;
  return `${Math.round(value)}${unit === 'B' ? ' B' : ''}`;
}

function table(results) {
  const rows = [['benchmark', 'runs', 'Converge (median, min-max)', 'peer (median, min-max)',
    'ratio', 'goal'], ['---', '---', '---', '---', '---', '---']];
  for (const r of results) {
    const side = (s) => (s ? `${format(s.median, r.unit)} (${format(s.min, r.unit)}-` +
      `${format(s.max, r.unit)})` : '-');
    let verdict = r.met === null ? r.goal : `${r.goal}: ${r.met ? 'met' : 'MISSED'}`;
    if (r.skipped) verdict += ` (skipped: ${r.skipped})`;
    rows.push([r.name, r.converge ? r.converge.runs.length : 0, side(r.converge), side(r.peer),
      r.ratio === null ? '-' : r.ratio.toFixed(2), verdict]);
  }
  return rows.map((row) => `| ${row.join(' | ')} |`).join('\n');
}

async function main() {
  fs.mkdirSync(state, { recursive: true });
  const started = Date.now();
  const results = [];
  const figures = { date: new Date().toISOString(), machine: machine(), runs, windowRuns, quick,
    complete: false, seconds: 0, benchmarks: results };
  // Written after each benchmark, so that an interrupted run keeps what it measured.
  const save = () => {
    figures.seconds = (Date.now() - started) / 1000;
    fs.writeFileSync(options.out, JSON.stringify(figures, null, 2) + '\n');
  };
  const steps = [['create', benchCreate], ['dynamo', benchDynamo], ['drift', benchDrift],
    ['window', benchWindowAndStore], ['explorer', benchExplorer], ['aws', benchAws],
    ['s3', benchS3], ['bucket', benchBucket], ['pubsub', benchPubSub]];
  try {
    for (const [part, step] of steps) {
      if (!parts.includes(part)) continue;
      results.push(...await step());
      save();
    }
  } finally {
    await stopEmulators();
  }
  figures.complete = true;
  save();
  process.stdout.write(`${table(results)}\n\n`);
  for (const r of results) {
    if (r.counts) process.stdout.write(`${r.name}: ${JSON.stringify(r.counts)}\n`);
  }
  const m = figures.machine;
  process.stdout.write(`\n${figures.date}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGB} GB, ${m.os}, ` +
    `node ${m.node}; ${runs} runs each (4 and 5: ${windowRuns}); ` +
    `${figures.seconds.toFixed(0)} s in all; ` +
    `figures in ${options.out}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench: ${err.stack || err}\n`);
  process.exit(1);
});
