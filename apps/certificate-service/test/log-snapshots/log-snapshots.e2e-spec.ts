import { mkdtempSync, rmSync, statSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@platform/testing';
import { DataSource } from 'typeorm';
import { enrollDevice, sql, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { issueCertificate } from '../fixtures/issue';
import { loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { LogSnapshotFiles } from '../../src/modules/log-snapshots/log-snapshot-files';
import { LogSnapshotsRepository } from '../../src/modules/log-snapshots/log-snapshots.repository';
import { LogSnapshotsRetention } from '../../src/modules/log-snapshots/log-snapshots-retention';
import type { CertsvcConfig } from '../../src/app/config/certsvc-config';

const DAY = 24 * 3_600_000;

describe('Log snapshots - POST /requests/{id}/logs, /devices/{serial}/logs*, request-logs', () => {
  let t: TestApp;
  let admin: TestUser;
  let dir: string;
  beforeAll(async () => {
    dir = join(mkdtempSync(join(tmpdir(), 'certsvc-logs-test-')), 'snapshots');
    t = await startEnrollApp({
      env: {
        CERTSVC_LOG_SNAPSHOT_DIR: dir,
        CERTSVC_LOG_SNAPSHOT_MAX_BYTES: String(64 * 1024),
        CERTSVC_LOG_SNAPSHOT_MAX_INFLATED_BYTES: String(1024 * 1024),
      },
    });
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  const upload = (d: EnrolledDevice, body: Buffer, secret: string | null = d.agentSecret) => {
    let req = t.http
      .post(`/api/v1/requests/${d.requestId}/logs`)
      .set('content-type', 'application/gzip');
    if (secret !== null) req = req.set('x-agent-secret', secret);
    return req.send(body);
  };
  const asAdmin = (req: ReturnType<TestApp['http']['get']>) =>
    req.set('authorization', `Bearer ${admin.accessToken}`);
  const logLines = (n: number) =>
    Buffer.from(
      Array.from({ length: n }, (_, i) => JSON.stringify({ level: 'info', msg: `line ${i}` })).join(
        '\n',
      ),
    );

  it('stores an upload 0600 in a 0700 directory; list, download (same bytes), delete', async () => {
    const d = await enrollDevice(t);
    const body = gzipSync(logLines(200));
    const created = await upload(d, body).expect(201);
    expect(created.body).toMatchObject({
      request_id: d.requestId,
      size_bytes: body.length,
      content_type: 'application/gzip',
    });
    const id = created.body.id as string;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, `${id}.log.gz`)).mode & 0o777).toBe(0o600);

    const list = await asAdmin(t.http.get(`/api/v1/devices/${d.serial}/logs`)).expect(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([id]);

    const second = await upload(d, gzipSync(logLines(3))).expect(201);
    const both = await asAdmin(t.http.get(`/api/v1/devices/${d.serial}/logs`)).expect(200);
    expect(both.body.items.map((i: { id: string }) => i.id)).toEqual([second.body.id, id]);

    const download = await asAdmin(t.http.get(`/api/v1/devices/${d.serial}/logs/${id}`))
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="logs-.*\.log\.gz"$/,
    );
    expect(Buffer.compare(download.body as Buffer, body)).toBe(0);
    expect(gunzipSync(download.body as Buffer).toString()).toContain('line 199');

    await asAdmin(t.http.delete(`/api/v1/devices/${d.serial}/logs/${id}`)).expect(204);
    expect(readdirSync(dir)).not.toContain(`${id}.log.gz`);
    const gone = await asAdmin(t.http.get(`/api/v1/devices/${d.serial}/logs/${id}`)).expect(404);
    expect(gone.body.code).toBe('log_snapshot_not_found');
    await asAdmin(t.http.delete(`/api/v1/devices/${d.serial}/logs/${id}`)).expect(404);
    await asAdmin(t.http.get(`/api/v1/devices/${d.serial}/logs/not-a-uuid`)).expect(404);
    const audit = await sql<{ action: string }>(
      t,
      `SELECT action FROM audit_log WHERE target = $1 ORDER BY id`,
      [d.serial],
    );
    expect(audit.map((r: { action: string }) => r.action)).toEqual(
      expect.arrayContaining(['device.log_snapshot_download', 'device.log_snapshot_delete']),
    );
  });

  it('refuses a wrong or missing secret with 401 and stores nothing', async () => {
    const d = await enrollDevice(t);
    const other = await enrollDevice(t);
    const before = readdirSync(dir).length;
    for (const res of [
      await upload(d, gzipSync('x'), 'was_wrong'),
      await upload(d, gzipSync('x'), other.agentSecret),
      await upload(d, gzipSync('x'), null),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('agent_unauthorized');
    }
    expect(readdirSync(dir).length).toBe(before);
  });

  it('refuses hostile uploads with a clear 4xx and keeps no file or row', async () => {
    const d = await enrollDevice(t);
    const cases: [Buffer, number, string][] = [
      [Buffer.alloc(0), 400, 'log_snapshot_empty'],
      [Buffer.alloc(70 * 1024, 'a'), 413, 'log_snapshot_too_large'],
      [gzipSync(Buffer.alloc(5 * 1024 * 1024, 'A')), 413, 'log_snapshot_inflated_too_large'],
      [
        gzipSync(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 0xff])),
        415,
        'log_snapshot_not_text',
      ],
      [gzipSync(Buffer.from([0xc3, 0x28, 0x61])), 415, 'log_snapshot_not_text'],
      [Buffer.from('plain text, not gzip'), 400, 'log_snapshot_corrupt'],
      [gzipSync(logLines(50)).subarray(0, 40), 400, 'log_snapshot_corrupt'],
      [gzipSync(Buffer.alloc(0)), 400, 'log_snapshot_empty'],
    ];
    for (const [body, status, code] of cases) {
      const res = await upload(d, body);
      expect({ code: res.body.code, status: res.status }).toEqual({ code, status });
    }
    const chunked = await t.http
      .post(`/api/v1/requests/${d.requestId}/logs`)
      .set('x-agent-secret', d.agentSecret)
      .set('content-type', 'application/octet-stream')
      .send(Buffer.from('abc'));
    expect(chunked.status).toBe(415);
    const json = await t.http
      .post(`/api/v1/requests/${d.requestId}/logs`)
      .set('x-agent-secret', d.agentSecret)
      .send({ logs: 'not a snapshot' });
    expect({ status: json.status, code: json.body.code }).toEqual({
      status: 415,
      code: 'unsupported_media_type',
    });
    expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
    const rows = await sql(t, `SELECT id FROM device_log_snapshots WHERE request_id = $1`, [
      d.requestId,
    ]);
    expect(rows).toEqual([]);
  });

  it('an upload that breaks off leaves no file and no row', async () => {
    const d = await enrollDevice(t);
    const server = t.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const body = gzipSync(logLines(5000));
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1/requests/${d.requestId}/logs`,
        headers: {
          'content-type': 'application/gzip',
          'content-length': String(body.length),
          'x-agent-secret': d.agentSecret,
        },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, 1000), () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200),
      );
    });
    await waitFor(() => {
      expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
    });
    expect(
      await sql(t, `SELECT id FROM device_log_snapshots WHERE request_id = $1`, [d.requestId]),
    ).toEqual([]);
    await upload(d, gzipSync(logLines(1))).expect(201);
  });

  it('request-logs sets upload_logs in the next checkin answer; an upload clears it', async () => {
    const d = await enrollDevice(t);
    await issueCertificate(t, admin.accessToken, d);
    const checkin = () =>
      t.http
        .post(`/api/v1/requests/${d.requestId}/checkin`)
        .set('x-agent-secret', d.agentSecret)
        .send({})
        .expect(200);
    expect((await checkin()).body.upload_logs).toBe(false);
    await asAdmin(t.http.post(`/api/v1/devices/${d.serial}/request-logs`)).expect(202);
    expect((await checkin()).body.upload_logs).toBe(true);
    await asAdmin(t.http.delete(`/api/v1/devices/${d.serial}/request-logs`)).expect(204);
    expect((await checkin()).body.upload_logs).toBe(false);
    const none = await asAdmin(t.http.delete(`/api/v1/devices/${d.serial}/request-logs`)).expect(
      404,
    );
    expect(none.body.code).toBe('log_request_not_found');
    await asAdmin(t.http.post(`/api/v1/devices/${d.serial}/request-logs`)).expect(202);
    await upload(d, gzipSync(logLines(2))).expect(201);
    expect((await checkin()).body.upload_logs).toBe(false);
    await asAdmin(t.http.post('/api/v1/devices/NO-SUCH-SERIAL/request-logs')).expect(404);
  });

  it('purges rows and files older than 7 days (injected clock)', async () => {
    const d = await enrollDevice(t);
    const old = (await upload(d, gzipSync(logLines(5))).expect(201)).body.id as string;
    const fresh = (await upload(d, gzipSync(logLines(6))).expect(201)).body.id as string;
    await sql(
      t,
      `UPDATE device_log_snapshots SET uploaded_at = now() - interval '8 days' WHERE id = $1`,
      [old],
    );
    const eightDaysAgo = new Date(Date.now() - 8 * DAY);
    utimesSync(join(dir, `${old}.log.gz`), eightDaysAgo, eightDaysAgo);
    writeFileSync(join(dir, `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.log.gz.part`), 'x');
    utimesSync(
      join(dir, `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.log.gz.part`),
      eightDaysAgo,
      eightDaysAgo,
    );
    const listed = await asAdmin(t.http.get(`/api/v1/devices/${d.serial}/logs`)).expect(200);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([fresh]);

    const dataSource = t.app.get(DataSource);
    const config = { logSnapshots: { dir, maxBytes: 1, maxInflatedBytes: 1 } } as CertsvcConfig;
    const retention = new LogSnapshotsRetention(
      new LogSnapshotsRepository(dataSource),
      new LogSnapshotFiles(config),
    );
    expect(await retention.purge(new Date())).toBe(1);
    expect(readdirSync(dir)).not.toContain(`${old}.log.gz`);
    expect(readdirSync(dir)).toContain(`${fresh}.log.gz`);
    expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
    expect(await sql(t, `SELECT id FROM device_log_snapshots WHERE id = $1`, [old])).toEqual([]);
    // six days later the fresh one is still inside the 7 days, eight days later it is not
    expect(await retention.purge(new Date(Date.now() + 6 * DAY))).toBe(0);
    expect(await retention.purge(new Date(Date.now() + 8 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await sql(t, `SELECT id FROM device_log_snapshots WHERE id = $1`, [fresh])).toEqual([]);
    expect(readdirSync(dir)).not.toContain(`${fresh}.log.gz`);
  });
});
