#!/usr/bin/env node
// A loopback STAND-IN for a Kubernetes API server, started by `npm run up` so that `kubectl` can
// be tried with the exec plugin without a cluster. It is not Kubernetes: it authenticates a
// client certificate the way the API server's x509 authenticator does (chain to the cluster's
// client CA, user = CN, groups = O) and answers only what a first check needs:
//
//   GET  /version                                               kubectl version
//   POST /apis/authentication.k8s.io/v1/selfsubjectreviews      kubectl auth whoami
//   GET  /healthz, /livez, /readyz                              "ok" (anonymous, like a real one)
//
// Everything else answers a Kubernetes `Status` 404; a call without a valid client certificate
// a `Status` 401. No dependencies beyond node:*. Environment:
//   STANDIN_PORT (default 6443), STANDIN_HOST (default 127.0.0.1),
//   STANDIN_TLS_CERT_FILE, STANDIN_TLS_KEY_FILE (its server certificate),
//   STANDIN_CLIENT_CA_FILE (client_ca_pem of the registered cluster).
// See docs/certificate-service/kubernetes.md ("Try kubectl in five minutes").
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import process from 'node:process';

function required(name) {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`standin-apiserver: ${name} is required\n`);
    process.exit(2);
  }
  return value;
}

const host = process.env.STANDIN_HOST || '127.0.0.1';
const port = Number(process.env.STANDIN_PORT || 6443);

const ANONYMOUS = new Set(['/healthz', '/livez', '/readyz']);
const VERSION = {
  major: '1',
  minor: '30',
  gitVersion: 'v1.30.0-certsvc-standin',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '1970-01-01T00:00:00Z',
  goVersion: 'none (node stand-in)',
  compiler: 'none',
  platform: `${process.platform}/${process.arch}`,
};

function send(res, status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function status(code, reason, message) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
}

/** The user the x509 authenticator would see, or undefined without a verified certificate. */
function userOf(socket) {
  if (!socket.authorized) return undefined;
  const subject = socket.getPeerCertificate()?.subject;
  if (!subject?.CN) return undefined;
  const groups = [subject.O ?? []].flat();
  return { username: [subject.CN].flat()[0], groups: [...groups, 'system:authenticated'] };
}

const server = createServer(
  {
    cert: readFileSync(required('STANDIN_TLS_CERT_FILE')),
    key: readFileSync(required('STANDIN_TLS_KEY_FILE')),
    ca: readFileSync(required('STANDIN_CLIENT_CA_FILE')),
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2',
  },
  (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (ANONYMOUS.has(path)) return send(res, 200, 'ok');
    const user = userOf(req.socket);
    if (!user) return send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
    if (req.method === 'GET' && path === '/version') return send(res, 200, VERSION);
    const review = /^\/apis\/authentication\.k8s\.io\/(v1|v1beta1|v1alpha1)\/selfsubjectreviews$/;
    const match = review.exec(path);
    if (req.method === 'POST' && match) {
      req.resume();
      return send(res, 201, {
        kind: 'SelfSubjectReview',
        apiVersion: `authentication.k8s.io/${match[1]}`,
        metadata: { creationTimestamp: new Date().toISOString() },
        status: { userInfo: user },
      });
    }
    return send(
      res,
      404,
      status(404, 'NotFound', `the stand-in API server does not serve ${path}`),
    );
  },
);

server.listen(port, host, () => {
  const bound = server.address().port;
  process.stdout.write(`standin-apiserver: listening on https://${host}:${bound}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
