import { sha256Hex } from '@platform/auth';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refuseWritesQuotingTheRow, waitFor, type RefusedWrite } from '@platform/testing';
import request from 'supertest';
import { freshServiceAccount, Login, loginAdmin } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

/** A user insert and every key-use update fail with an error that quotes the row. */
const REFUSED_WRITES: RefusedWrite[] = [
  { table: 'users', event: 'INSERT', when: "NEW.email LIKE '%@db-fault.test'" },
  { table: 'service_accounts', event: 'UPDATE' },
];

describe('Secrets in logs - failing requests write no secret to the log file', () => {
  let t: TestApp;
  let root: string;
  let logDir: string;
  let admin: Login;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'findings-logs-'));
    logDir = join(root, 'logs');
    t = await startTestApp({ LOG_FILE_SINK_ENABLED: 'true', LOG_DIR: logDir, LOG_LEVEL: 'warn' });
    admin = await loginAdmin(t);
    await refuseWritesQuotingTheRow(t.config.databaseUrl, REFUSED_WRITES);
  }, 30_000);
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  async function logText(): Promise<string> {
    const names = await readdir(logDir);
    const texts = await Promise.all(names.map((name) => readFile(join(logDir, name), 'utf8')));
    return texts.join('');
  }

  /** The log files' text once a line contains `marker` (the sink writes from its own thread). */
  function logOnceWritten(marker: string): Promise<string> {
    return waitFor(
      async () => {
        const text = await logText();
        if (!text.includes(marker)) throw new Error(`no log line contains "${marker}":\n${text}`);
        return text;
      },
      { timeoutMs: 10_000, intervalMs: 25, what: `a log line with "${marker}"` },
    );
  }

  it('logs a failed user insert by statement kind and SQLSTATE, without password, hash or credentials', async () => {
    const password = 'Known-Secret-Password-7';
    const res = await request(t.url)
      .post('/api/v1/admin/users')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Cookie', admin.cookie)
      .send({ email: 'leak@db-fault.test', password, is_admin: false })
      .expect(500);
    const errorId = (res.body as { error_id: string }).error_id;
    const text = await logOnceWritten(errorId);
    expect(text).not.toContain(password);
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain('leak@db-fault.test');
    expect(text).not.toContain(admin.token);
    expect(text).not.toContain(admin.cookie.split('=')[1]);
    const line = text
      .split('\n')
      .filter((l) => l.includes(errorId) && l.includes('"err"'))
      .map((l) => JSON.parse(l) as { err: Record<string, unknown> })[0];
    expect(line?.err).toMatchObject({ sqlstate: 'P0001', query_kind: 'INSERT' });
  });

  it('logs a failed key-use update without the API key or its hash', async () => {
    const sa = await freshServiceAccount(t, admin);
    await request(t.url).get('/api/v1/test-probe/upload').set('X-API-Key', sa.key);
    const text = await logOnceWritten('last_used_at update failed');
    expect(text).not.toContain(sa.key);
    expect(text).not.toContain(sha256Hex(sa.key));
  });

  it('creates the log directory 0700 and its files 0600', async () => {
    expect((await stat(logDir)).mode & 0o777).toBe(0o700);
    const names = await readdir(logDir);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect((await stat(join(logDir, name))).mode & 0o777).toBe(0o600);
    }
  });
});
