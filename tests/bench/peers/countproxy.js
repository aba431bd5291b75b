// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// A counting HTTP proxy on a free loopback port in front of one emulator port: how many
// requests a client sends and how many of them write. Used only in the counting pass of
// `converge apply --wait` (the timed runs go straight to the emulators).
'use strict';

const http = require('http');

/// DynamoDB's operations are POSTs; its writes are told apart by X-Amz-Target.
function isWrite(req) {
  const target = req.headers['x-amz-target'];
  if (target) return /\.(Create|Update|Delete|Put|Tag|Untag)/.test(target);
  return !['GET', 'HEAD'].includes(req.method);
}

function startProxy(targetPort, host = '127.0.0.1') {
  const counts = { requests: 0, writes: 0, byMethod: {} };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    counts.requests += 1;
    const what = req.headers['x-amz-target']
      ? String(req.headers['x-amz-target']).replace(/^.*\./, '') : req.method;
    counts.byMethod[what] = (counts.byMethod[what] || 0) + 1;
    if (isWrite(req)) counts.writes += 1;
    const upstream = http.request({
      host, port: targetPort, method: req.method, path: req.url, headers: req.headers, agent,
    }, (answer) => {
      res.writeHead(answer.statusCode, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      res.destroy(err);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve({
      port: server.address().port,
      counts,
      close: () => new Promise((done) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
    }));
  });
}

module.exports = { startProxy };
