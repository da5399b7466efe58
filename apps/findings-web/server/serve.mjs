#!/usr/bin/env node
/**
 * The findings web UI's server: the built static files plus a same-origin proxy of the API
 * (so the HttpOnly refresh cookie, Path=/api/v1/auth SameSite=Strict, works without CORS).
 * Node only, no dependency: the same file runs under `npm run up`, the Playwright tests and
 * the Helm Deployment (unprivileged, read-only root filesystem: it writes nothing).
 *
 *   FINDINGS_WEB_ROOT   the built UI (default: dist/apps/findings-web next to this repo)
 *   FINDINGS_WEB_PORT   listen port (default 8081), FINDINGS_WEB_HOST (default 127.0.0.1)
 *   FINDINGS_API_URL    the findings API (default http://127.0.0.1:3000)
 *
 * Proxied: /api/*, /version, /health (the API's own). Everything else is a file of the build,
 * or index.html (client-side routes), text files compressed (brotli, else gzip, by the
 * request's Accept-Encoding). /healthz answers the server's own health.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip as gzipCompress, constants as zlib } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(
  process.env.FINDINGS_WEB_ROOT ?? join(here, '../../../dist/apps/findings-web'),
);
const port = Number(process.env.FINDINGS_WEB_PORT ?? 8081);
const host = process.env.FINDINGS_WEB_HOST ?? '127.0.0.1';
const api = new URL(process.env.FINDINGS_API_URL ?? 'http://127.0.0.1:3000');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  // Mantine sets inline style attributes; scripts only from this origin.
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
};
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

function isProxied(pathname) {
  return (
    pathname.startsWith('/api/') ||
    pathname === '/api' ||
    pathname === '/version' ||
    pathname === '/health'
  );
}

function proxy(req, res) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  headers.host = api.host;
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = 'http';
  const send = api.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(
    {
      protocol: api.protocol,
      hostname: api.hostname,
      port: api.port,
      method: req.method,
      path: req.url,
      headers,
    },
    (answer) => {
      const out = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'Content-Type': 'application/json' });
    }
    res.end(
      JSON.stringify({ error: 'the findings API is not reachable', code: 'api_unreachable' }),
    );
  });
  req.pipe(upstream);
}

/** Text files are sent compressed to clients that accept it (fonts and images already are). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.ico']);
/** Smaller files gain nothing worth a header. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * The encoding to send: brotli when the client accepts it, else gzip, else none (q=0 refuses).
 * Every encoding token is read with its q value; `*` stands for the ones not named.
 */
function chooseEncoding(acceptEncoding) {
  const accepted = new Map();
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/**
 * Compressed bodies, made once per file version (path, size, mtime) and kept in memory: the
 * server writes nothing to disk (read-only root filesystem), and the build is a few MB. zlib's
 * asynchronous functions run in the thread pool, so a big bundle never stalls other requests;
 * the whole build is compressed in the background at start.
 */
const compressed = new Map();
const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCompress);

function compressedBody(file, stat, encoding) {
  const key = `${encoding} ${file}`;
  const version = `${stat.size}:${stat.mtimeMs}`;
  const cached = compressed.get(key);
  if (cached?.version === version) return cached.body;
  const body = readFile(file).then((raw) =>
    encoding === 'br'
      ? brotli(raw, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: 9,
            [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : gzip(raw, { level: 9 }),
  );
  compressed.set(key, { version, body });
  body.catch(() => compressed.delete(key));
  return body;
}

/** Every compressible file of the build, both encodings, one after the other. */
async function warmUp(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await warmUp(path);
    else if (COMPRESSIBLE.has(extname(path))) {
      const stat = statSync(path);
      if (stat.size < MIN_COMPRESS_BYTES) continue;
      await compressedBody(path, stat, 'br');
      await compressedBody(path, stat, 'gzip');
    }
  }
}

function serveFile(req, res, file, status = 200) {
  const extension = extname(file);
  const type = TYPES[extension] ?? 'application/octet-stream';
  const immutable = file.includes(`${sep}assets${sep}`);
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  const stat = statSync(file);
  if (COMPRESSIBLE.has(extension) && stat.size >= MIN_COMPRESS_BYTES) {
    headers['Vary'] = 'Accept-Encoding';
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (encoding) {
      compressedBody(file, stat, encoding).then(
        (body) => {
          res.writeHead(status, {
            ...headers,
            'Content-Encoding': encoding,
            'Content-Length': body.length,
          });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        () => {
          if (!res.headersSent) res.writeHead(500, SECURITY_HEADERS);
          res.end();
        },
      );
      return;
    }
  }
  res.writeHead(status, { ...headers, 'Content-Length': stat.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"status":"ok"}');
    return;
  }
  if (isProxied(url.pathname)) {
    proxy(req, res);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' });
    res.end();
    return;
  }
  let pathname;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    res.writeHead(400);
    res.end();
    return;
  }
  const file = normalize(join(root, pathname));
  if (file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) {
    serveFile(req, res, file);
    return;
  }
  if (pathname.startsWith('/assets/')) {
    res.writeHead(404, SECURITY_HEADERS);
    res.end();
    return;
  }
  serveFile(req, res, join(root, 'index.html'));
});

if (!existsSync(join(root, 'index.html'))) {
  process.stderr.write(`findings-web: ${root}/index.html is missing (build the UI first)\n`);
  process.exit(1);
}
// Idle keep-alive connections stay open longer than the clients' and load balancers' own idle
// time-outs (commonly 60 s): with Node's 5 s default, a client reusing a connection at the
// moment the server closed it got a reset instead of an answer (seen in the browser tests).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(
    `findings-web serving ${root} on http://${host}:${typeof address === 'object' && address ? address.port : port} (API ${api.origin})\n`,
  );
  warmUp(root).catch((error) =>
    process.stderr.write(`findings-web: compressing the build failed: ${String(error)}\n`),
  );
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
