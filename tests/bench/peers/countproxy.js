// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// A counting HTTP proxy on a free loopback port in front of one emulator port: how many
// requests a client sends and how many of them write. Used only in the counting pass of
// `converge apply --wait` and of the passes after it (the timed runs go straight to the
// emulators).
'use strict';

const http = require('http');

/// What an AWS request asks for: the json protocol (DynamoDB, SQS) names it in X-Amz-Target, the
/// query protocol (SNS, STS) in the form body's Action. Azure's requests are counted by method.
function operationOf(req, body) {
  // Google's REST APIs: the method and the collection (`GET topics` lists, `PUT topics/*`
  // creates a topic, `GET topics/*` reads one).
  const google = /^\/v1\/projects\/[^/]+\/([a-zA-Z]+)(\/[^/?]+)?/.exec(req.url);
  if (google) return `${req.method} ${google[1]}${google[2] ? '/*' : ''}`;
  const target = req.headers['x-amz-target'];
  if (target) return String(target).replace(/^.*\./, '');
  const action = body ? new URLSearchParams(body.toString('utf8')).get('Action') : null;
  return action || req.method;
}

/// The AWS service a request is signed for (SigV4's credential scope), or null.
function serviceOf(req) {
  if (/^\/v1\/projects\//.test(req.url)) return 'google';
  const authorization = req.headers.authorization || '';
  const scope = /Credential=[^/,]*\/\d{8}\/[^/,]*\/([^/,]*)\//.exec(authorization);
  return scope ? scope[1] : null;
}

/// AWS's operations are POSTs; their writes are told apart by the operation's name.
function isWrite(req, operation) {
  if (operation.startsWith(`${req.method} `)) return !['GET', 'HEAD'].includes(req.method);
  if (operation !== req.method)
    return /^(Create|Update|Delete|Put|Set|Tag|Untag|Add|Remove)/.test(operation);
  return !['GET', 'HEAD'].includes(req.method);
}

function isForm(req) {
  return /^application\/x-www-form-urlencoded/.test(req.headers['content-type'] || '');
}

function startProxy(targetPort, host = '127.0.0.1') {
  // byMethod: by operation for AWS (by HTTP method for Azure); byService: AWS's only.
  const counts = { requests: 0, writes: 0, byMethod: {}, byService: {} };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  // A query-protocol body is read whole before it is passed on, for its Action; the rest stream.
  const forward = (req, res, body) => {
    counts.requests += 1;
    const what = operationOf(req, body);
    counts.byMethod[what] = (counts.byMethod[what] || 0) + 1;
    const service = serviceOf(req);
    if (service) counts.byService[service] = (counts.byService[service] || 0) + 1;
    if (isWrite(req, what)) counts.writes += 1;
    const upstream = http.request({
      host, port: targetPort, method: req.method, path: req.url, headers: req.headers, agent,
    }, (answer) => {
      res.writeHead(answer.statusCode, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      res.destroy(err);
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const server = http.createServer((req, res) => {
    if (!isForm(req)) {
      forward(req, res, null);
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks)));
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
