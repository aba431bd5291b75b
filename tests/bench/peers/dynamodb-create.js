// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The peer of benchmark 2: DynamoDB tables to ACTIVE with the official AWS SDK, as a script does
// it: CreateTable, then the table-exists waiter, --concurrency tables at a time (each slot is
// blocked while its table is created). The waiter polls every --poll-ms (default 500 ms, the
// interval Converge polls a CREATING table at); the SDK's own default is 20 s to 120 s, which
// would make the script far slower. Prints one JSON line:
// {seconds, active, requests, writes, byTarget}.
//
//   node dynamodb-create.js --env EMULATORS_ENV --count 200 [--concurrency 8] [--poll-ms 500]
'use strict';

const lib = require('./lib');

const options = lib.parseArgs(process.argv.slice(2),
  { env: '', count: 200, concurrency: 8, 'poll-ms': 500 });
const counts = lib.countDynamoRequests();
const { DynamoDBClient, CreateTableCommand, waitUntilTableExists } =
  require('@aws-sdk/client-dynamodb');

async function main() {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: lib.readEmulators(options.env).dynamodb,
    // dynalite accepts any key; these are dummies, like Converge's `emulator: true`.
    credentials: { accessKeyId: 'converge-emulator', secretAccessKey: 'converge-emulator-secret' },
  });
  const delay = options['poll-ms'] / 1000;
  const names = lib.dynamoNames(options.count);
  const started = process.hrtime.bigint();
  await lib.pool(names, options.concurrency, async (TableName) => {
    try {
      await client.send(new CreateTableCommand({
        TableName,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }));
    } catch (err) {
      if (err.name !== 'ResourceInUseException') throw err; // idempotent: it exists already
    }
    await waitUntilTableExists(
      { client, minDelay: delay, maxDelay: delay, maxWaitTime: 300 }, { TableName });
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  lib.report({ seconds, active: names.length, ...counts });
  client.destroy();
}

main().catch((err) => lib.fail(`dynamodb-create: ${err.stack || err}`));
