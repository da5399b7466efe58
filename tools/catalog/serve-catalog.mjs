#!/usr/bin/env node
// Serves a catalog directory (build-catalog.mjs output) over plain HTTP on loopback, for
// `npm run up`: the findings API reads it with PLUGIN_CATALOG_ALLOW_LOCAL=true (development
// only). Env: CATALOG_DIR, CATALOG_PORT (default 7080), CATALOG_HOST (default 127.0.0.1).
// GET /healthz answers 200. Only files under CATALOG_DIR are served; nothing is listed.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, normalize, resolve } from 'node:path';

const root = resolve(process.env.CATALOG_DIR ?? '.');
const port = Number(process.env.CATALOG_PORT ?? 7080);
const host = process.env.CATALOG_HOST ?? '127.0.0.1';

const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end();
    return;
  }
  if (path === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    return;
  }
  const file = normalize(join(root, path));
  if (!file.startsWith(`${root}/`)) {
    res.writeHead(404).end();
    return;
  }
  readFile(file).then(
    (body) =>
      res
        .writeHead(200, {
          'content-type': file.endsWith('.json') ? 'application/json' : 'application/octet-stream',
          'content-length': body.length,
        })
        .end(req.method === 'HEAD' ? undefined : body),
    () => res.writeHead(404).end(),
  );
});
server.listen(port, host, () => {
  process.stdout.write(`${JSON.stringify({ msg: 'catalog serving', host, port, root })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'])
  process.on(signal, () => server.close(() => process.exit(0)));
