import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEnrollApp } from '../fixtures/enroll';
import type { TestApp, TestAppOptions } from '../support/test-app';

/** A loopback port free right now (the app then listens on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ListeningApp extends TestApp {
  baseUrl: string;
}

/**
 * The app listening on a real loopback port, with `CERTSVC_PKI_BASE_URL` pointing at it, so
 * that `openssl -crl_download` can follow the distribution points of what it issues.
 */
export async function startListeningApp(options: TestAppOptions = {}): Promise<ListeningApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await startEnrollApp({
    ...options,
    env: { CERTSVC_PKI_BASE_URL: baseUrl, ...options.env },
  });
  await t.app.listen(port, '127.0.0.1');
  return { ...t, baseUrl };
}

/**
 * `openssl <args>` in a temporary directory holding `files`, run asynchronously (`outputs`:
 * files openssl wrote there, read back): the app under
 * test answers openssl's CRL downloads from this very process.
 */
export async function opensslAsync(
  args: (dir: string) => string[],
  files: Record<string, string | Buffer>,
  outputs: readonly string[] = [],
): Promise<{ ok: boolean; out: string; files: Record<string, Buffer> }> {
  const dir = await mkdtemp(join(tmpdir(), 'certsvc-pki-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    const result = await new Promise<{ ok: boolean; out: string }>((resolve) => {
      execFile('openssl', args(dir), { timeout: 30_000 }, (error, stdout, stderr) => {
        resolve({ ok: error === null, out: `${stdout}${stderr}` });
      });
    });
    const read: Record<string, Buffer> = {};
    for (const name of outputs) read[name] = await readFile(join(dir, name));
    return { ...result, files: read };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Raw GET through supertest with the body kept as bytes. */
export function getBytes(t: TestApp, path: string, headers: Record<string, string> = {}) {
  let req = t.http.get(path);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  return req.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
