import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import request from 'supertest';
import { apiKey, bearer, createProduct, createProject } from '../support/catalog';
import { freshServiceAccount, grant, Login } from '../support/sessions';
import { freshProduct } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport } from '../support/reports';
import { TestApp } from '../support/test-app';
import { fixture } from '@platform/report-parsing/testing';

const FLAWFINDER = fixture('flawfinder-vulnerable.sarif');
const MAX_BYTES = 64 * 1024;

let t: TestApp;
let admin: Login;
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ env: { REPORT_MAX_BYTES: String(MAX_BYTES) } });
  ({ t, admin } = stack);
});
afterAll(() => stack.close());

async function reportRows(productId: string, app: TestApp = t): Promise<number> {
  const db = new Client({ connectionString: app.config.databaseUrl });
  await db.connect();
  try {
    const res = await db.query('SELECT count(*)::int AS n FROM reports WHERE product_id = $1', [
      productId,
    ]);
    return (res.rows[0] as { n: number }).n;
  } finally {
    await db.end();
  }
}

/**
 * Streams a multipart body of `total` bytes over a raw socket (so the answer is read even when
 * the server closes the connection mid-body) and resolves with the status code and how many
 * bytes had been sent when it arrived; `readAfterMs` delays reading the answer.
 */
function streamingUpload(
  url: string,
  token: string,
  total: number,
  readAfterMs = 0,
): Promise<{ status: number; sent: number }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const boundary = 'xxBOUNDARYxx';
    const socket = connect(Number(target.port), target.hostname);
    let sent = 0;
    let answer = '';
    const read = (): void => {
      socket.on('data', (data: Buffer) => {
        answer += data.toString('latin1');
        const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (match) {
          resolve({ status: Number(match[1]), sent });
          socket.destroy();
        }
      });
    };
    if (readAfterMs > 0) {
      // A client busy writing reads the answer only later (the socket's data waits unread).
      socket.pause();
      setTimeout(() => {
        read();
        socket.resume();
      }, readAfterMs);
    } else {
      read();
    }
    socket.on('error', () => undefined);
    socket.on('close', () => reject(new Error(`closed without an answer after ${sent} bytes`)));
    socket.write(
      `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${total + 200}\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.json"\r\n` +
        `Content-Type: application/json\r\n\r\n[`,
    );
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const pump = (): void => {
      if (sent >= total || socket.destroyed) return;
      sent += chunk.length;
      socket.write(chunk, () => setTimeout(pump, 1));
    };
    pump();
  });
}

describe('Upload report - /api/v1/products/{product_id}/reports (POST)', () => {
  it('accepts a SARIF file with 202 and a pending report id', async () => {
    const product = await freshProduct(t, admin);
    const res = await request(t.url)
      .post(`/api/v1/products/${product.id}/reports`)
      .set('Authorization', `Bearer ${admin.token}`)
      .set('X-Commit-Id', 'abc123')
      .field('engine', 'flawfinder')
      .attach('file', FLAWFINDER, 'flawfinder.sarif')
      .expect(202);
    expect(res.body).toEqual({ data: { report_id: expect.any(String), status: 'pending' } });
    const report = await request(t.url)
      .get(`/api/v1/reports/${res.body.data.report_id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(report.body.data).toMatchObject({
      status: 'pending',
      commit_id: 'abc123',
      engine: 'flawfinder',
      file_name: 'flawfinder.sarif',
      size_bytes: FLAWFINDER.length,
    });
    expect(readdirSync(stack.env.storageDir)).toContain(`${res.body.data.report_id}.sarif`);
  });

  it('takes commit_id from the query when neither field nor header is set', async () => {
    const product = await freshProduct(t, admin);
    const res = await request(t.url)
      .post(`/api/v1/products/${product.id}/reports?commit_id=q-commit`)
      .set('Authorization', `Bearer ${admin.token}`)
      .attach('file', FLAWFINDER, 'r.json')
      .expect(202);
    const report = await request(t.url)
      .get(`/api/v1/reports/${res.body.data.report_id}`)
      .set('Authorization', `Bearer ${admin.token}`);
    expect(report.body.data.commit_id).toBe('q-commit');
  });

  it('refuses other extensions (400) and archives by content (400), storing nothing', async () => {
    const product = await freshProduct(t, admin);
    const before = readdirSync(stack.env.storageDir).length;
    const ext = await request(t.url)
      .post(`/api/v1/products/${product.id}/reports`)
      .set('Authorization', `Bearer ${admin.token}`)
      .attach('file', FLAWFINDER, 'report.xml')
      .expect(400);
    expect(ext.body.code).toBe('report_extension_refused');
    const zipped = await request(t.url)
      .post(`/api/v1/products/${product.id}/reports`)
      .set('Authorization', `Bearer ${admin.token}`)
      .attach('file', gzipSync(FLAWFINDER), 'report.sarif')
      .expect(400);
    expect(zipped.body.code).toBe('report_archive_refused');
    await request(t.url)
      .post(`/api/v1/products/${product.id}/reports`)
      .set('Authorization', `Bearer ${admin.token}`)
      .field('format', 'xml')
      .attach('file', FLAWFINDER, 'report.sarif')
      .expect(400);
    expect(readdirSync(stack.env.storageDir).length).toBe(before);
    expect(await reportRows(product.id)).toBe(0);
  });

  it('answers 413 while the body is still streaming and deletes the partial file', async () => {
    const product = await freshProduct(t, admin);
    const before = readdirSync(stack.env.storageDir).length;
    // The client would send 64 MiB; the answer arrives long before that.
    const { status, sent } = await streamingUpload(
      `${t.url}/api/v1/products/${product.id}/reports`,
      admin.token,
      64 * 1024 * 1024,
    );
    expect(status).toBe(413);
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    expect(readdirSync(stack.env.storageDir).length).toBe(before);
    expect(await reportRows(product.id)).toBe(0);
  });

  it('answers 413 to a client that reads the answer only while still writing, 300 ms later', async () => {
    // The server reads and discards the rest for a while after its answer (lingering close):
    // closed at once, the client's next write is reset and the unread answer lost with it.
    const product = await freshProduct(t, admin);
    const { status } = await streamingUpload(
      `${t.url}/api/v1/products/${product.id}/reports`,
      admin.token,
      64 * 1024 * 1024,
      300,
    );
    expect(status).toBe(413);
    expect(await reportRows(product.id)).toBe(0);
  });

  it('requires a file (400)', async () => {
    const product = await freshProduct(t, admin);
    const res = await request(t.url)
      .post(`/api/v1/products/${product.id}/reports`)
      .set('Authorization', `Bearer ${admin.token}`)
      .field('format', 'sarif')
      .expect(400);
    expect(res.body.code).toBe('report_file_missing');
  });

  it('checks upload_report against the product: other product 404, right product 202', async () => {
    const mine = await freshProduct(t, admin);
    const other = await createProduct(t, bearer(admin), (await createProject(t, bearer(admin))).id);
    const sa = await freshServiceAccount(t, admin);
    expect(
      (
        await grant(t, admin, sa.id, {
          permission: 'upload_report',
          level: 'product',
          product_id: mine.id,
        })
      ).status,
    ).toBe(201);
    await uploadReport(t, apiKey(sa.key), mine.id, FLAWFINDER);
    await request(t.url)
      .post(`/api/v1/products/${other.id}/reports`)
      .set('X-API-Key', sa.key)
      .attach('file', FLAWFINDER, 'r.sarif')
      .expect(404);
  });
});

describe('Upload report with Redis unreachable - /api/v1/products/{product_id}/reports (POST)', () => {
  // Every request of this app first waits for the Redis-backed rate limiter to give up.
  it('answers 503 and leaves neither the file nor the report behind', async () => {
    const down = await startIngestion({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const product = await freshProduct(down.t, down.admin);
      const res = await request(down.t.url)
        .post(`/api/v1/products/${product.id}/reports`)
        .set('Authorization', `Bearer ${down.admin.token}`)
        .attach('file', FLAWFINDER, 'r.sarif');
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('queue_unavailable');
      expect(readdirSync(down.env.storageDir)).toEqual([]);
      expect(await reportRows(product.id, down.t)).toBe(0);
    } finally {
      await down.close();
    }
  }, 30_000);
});
