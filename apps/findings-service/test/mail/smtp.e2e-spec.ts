import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from '@platform/plugin-protocol/testing';
import type { ServiceProcess } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import { MailSettingsRepository } from '../../src/modules/mail/mail-settings.repository';
import { PluginMailSender } from '../../src/modules/mail/plugin-mail.port';
import { SmtpTargetRefused, SmtpTargets } from '../../src/modules/mail/smtp-target';
import { SmtpSendFailed } from '../../src/modules/mail/smtp-transports';
import {
  HostCallDenied,
  HostCallNotConfigured,
  type KnownInstallation,
  type PluginEventContext,
} from '../../src/modules/plugin-runner-client/host-call-ports';
import { PluginRunnerClient } from '../../src/modules/plugin-runner-client/plugin-runner.client';
import { installedManifest } from '../../src/modules/plugins/installed-plugins/installed-manifest';
import { PluginSecretBox } from '../../src/modules/plugins/installed-plugins/plugin-secret-box';
import { DataSource } from 'typeorm';
import { RUNNER_TOKEN, startRunnerProcess } from '../catalog-plugins/support/catalog-plugin-lab';
import { bearer, createProject } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { loginAdmin, type Login } from '../support/sessions';
import { makeTestPki, SmtpStandIn, type TestPki } from '../support/smtp-stand-in';
import { startTestApp, type TestApp } from '../support/test-app';

const ACCOUNT = { user: 'findings-mailer', pass: 'smtp-installation-pass-93' };
const PROJECT_ACCOUNT = { user: 'project-mailer', pass: 'smtp-project-pass-57' };
const FROM = 'findings@findings.example';
const publisher = publisherKey();

/** The e-mail channel's settings as its manifest declares them (the fixture program stands in). */
const MAIL_SETTINGS = [
  { name: 'smtp_host', type: 'string' },
  { name: 'smtp_port', type: 'integer' },
  { name: 'smtp_username', type: 'string' },
  { name: 'smtp_password', type: 'string', secret: true },
  { name: 'smtp_from', type: 'string' },
  { name: 'smtp_tls_mode', type: 'string' },
  { name: 'allow_project_smtp', type: 'boolean' },
  { name: 'smtp_allowed_hosts', type: 'string' },
  { name: 'recipients', type: 'string', per_project: true },
  { name: 'subject_prefix', type: 'string', per_project: true },
  { name: 'project_smtp_host', type: 'string', per_project: true },
  { name: 'project_smtp_port', type: 'integer', per_project: true },
  { name: 'project_smtp_username', type: 'string', per_project: true },
  { name: 'project_smtp_password', type: 'string', secret: true, per_project: true },
  { name: 'project_smtp_from', type: 'string', per_project: true },
  { name: 'project_smtp_tls_mode', type: 'string', per_project: true },
];
const fixture = signedFixture(buildNativeChannelFixture('normal', 'mail'), publisher, {
  id: 'email-channel',
  settings: MAIL_SETTINGS,
});

let pki: TestPki;
let tlsServer: SmtpStandIn;
let starttlsServer: SmtpStandIn;
let plainServer: SmtpStandIn;
let wrongNameServer: SmtpStandIn;
let projectServer: SmtpStandIn;
let runner: ServiceProcess;
let t: TestApp;
let admin: Login;
let sender: PluginMailSender;

beforeAll(async () => {
  pki = makeTestPki();
  [tlsServer, starttlsServer, plainServer, wrongNameServer, projectServer] = await Promise.all([
    new SmtpStandIn({ mode: 'tls', pki, account: ACCOUNT }).start(),
    new SmtpStandIn({ mode: 'starttls', pki, account: ACCOUNT }).start(),
    new SmtpStandIn({ mode: 'plain', pki, account: ACCOUNT }).start(),
    new SmtpStandIn({ mode: 'tls', pki, account: ACCOUNT, wrongName: true }).start(),
    new SmtpStandIn({ mode: 'starttls', pki, account: PROJECT_ACCOUNT }).start(),
  ]);
  const started = await startRunnerProcess({
    PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
    PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
  });
  runner = started.runner;
  t = await startTestApp({
    SMTP_CA_FILE: pki.caFile,
    // The stand-ins listen on loopback: the guard must be told so explicitly.
    OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
  });
  admin = await loginAdmin(t);
  sender = t.app.get(PluginMailSender, { strict: false });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await runner?.stop();
  await Promise.all(
    [tlsServer, starttlsServer, plainServer, wrongNameServer, projectServer].map((s) => s?.stop()),
  );
  pki?.remove();
});

let installs = 0;

/** An installed e-mail channel with these installation settings (secrets sealed as installs do). */
async function installMailChannel(
  settings: Record<string, unknown>,
  secrets: Record<string, string> = { smtp_password: ACCOUNT.pass },
): Promise<string> {
  const sealed = new PluginSecretBox(t.config).seal(secrets);
  installs += 1;
  return withDb(t, async (db) => {
    const res = await db.query<{ id: string }>(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities, settings, secret_settings)
       VALUES ('sideload', $5, 'native', true, '1.0.0', $1, $2, '{notification_channel}', $3, $4)
       RETURNING id`,
      [
        fixture.digest,
        fixture.manifestBytes,
        JSON.stringify(settings),
        sealed,
        `email-channel-${installs}`,
      ],
    );
    return res.rows[0]?.id as string;
  });
}

function server(s: SmtpStandIn, mode: string, extra: Record<string, unknown> = {}) {
  return {
    smtp_host: '127.0.0.1',
    smtp_port: s.port,
    smtp_username: ACCOUNT.user,
    smtp_from: FROM,
    smtp_tls_mode: mode,
    ...extra,
  };
}

const putConfig = (projectId: string, pluginId: string, settings: Record<string, unknown>) =>
  request(t.url)
    .put(`/api/v1/projects/${projectId}/plugin-channels/${pluginId}/config`)
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ settings });

async function project(pluginId: string, settings: Record<string, unknown> = {}): Promise<string> {
  const projectId = (await createProject(t, bearer(admin))).id as string;
  await putConfig(projectId, pluginId, {
    enabled: true,
    recipients: 'sec-team@example.org,\nOps@Example.org',
    subject_prefix: '[Findings]',
    ...settings,
  }).expect(200);
  return projectId;
}

function contextOf(
  pluginId: string,
  projectId: string,
  eventId = randomUUID(),
): PluginEventContext {
  return { pluginId, versionDigest: fixture.digest, projectId, eventId };
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: Error) => error,
  );
}

describe('the SMTP sender of the e-mail channel', () => {
  it('sends over implicit TLS with AUTH: From, To (the project recipients only), Subject with prefix, a stable Message-ID; secrets never in the body', async () => {
    const pluginId = await installMailChannel(server(tlsServer, 'tls'));
    const projectId = await project(pluginId, { project_smtp_password: '' });
    const context = contextOf(pluginId, projectId);
    const before = tlsServer.received.length;
    const sent = await sender.send(context, {
      subject: 'New findings: 3',
      body: `3 new findings\nleaked by a plugin: ${ACCOUNT.pass}\n`,
    });
    expect(sent.messageId).toMatch(/^<[0-9a-f]{32}@findings\.example>$/);
    expect(tlsServer.received).toHaveLength(before + 1);
    const mail = tlsServer.received[before]!;
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe(ACCOUNT.user);
    expect(mail.envelopeFrom).toBe(FROM);
    expect(mail.envelopeTo.sort()).toEqual(['ops@example.org', 'sec-team@example.org']);
    expect(mail.parsed.from?.text).toBe(FROM);
    expect(mail.parsed.subject).toBe('[Findings] New findings: 3');
    expect(mail.parsed.messageId).toBe(sent.messageId);
    expect(mail.parsed.headers.get('x-findsvc-idempotency-key')).toBe(`mail:${context.eventId}`);
    expect(mail.parsed.text).toContain('3 new findings');
    expect(mail.raw).not.toContain(ACCOUNT.pass);
    expect(mail.parsed.text).toContain('[redacted]');

    // The same delivery again: answered from mail_sends, nothing sent twice.
    expect(await sender.send(context, { subject: 'New findings: 3', body: 'again' })).toEqual(sent);
    expect(tlsServer.received).toHaveLength(before + 1);
    expect(tlsServer.duplicates).toBe(0);
    const rows = await withDb(t, (db) =>
      db.query(`SELECT state, message_id, recipient_count FROM mail_sends WHERE event_id = $1`, [
        context.eventId,
      ]),
    );
    expect(rows.rows).toEqual([{ state: 'sent', message_id: sent.messageId, recipient_count: 2 }]);

    // The installation's password is stored sealed: the row's ciphertext is not the value.
    const stored = await withDb(t, (db) =>
      db.query<{ secret_settings: string }>(
        `SELECT secret_settings FROM installed_plugins WHERE id = $1`,
        [pluginId],
      ),
    );
    const sealed = stored.rows[0]!.secret_settings;
    expect(sealed).not.toContain(ACCOUNT.pass);
    expect(new PluginSecretBox(t.config).open(sealed)).toEqual({ smtp_password: ACCOUNT.pass });
  });

  it('sends a delivery left `sending` (crash after the server accepted) again with the same Message-ID; the receiver keeps one', async () => {
    const pluginId = await installMailChannel(server(tlsServer, 'tls'));
    const projectId = await project(pluginId);
    const context = contextOf(pluginId, projectId);
    const first = await sender.send(context, { subject: 'crash window', body: 'b' });
    // As if the process died between the server's 250 and marking the row sent.
    await withDb(t, (db) =>
      db.query(`UPDATE mail_sends SET state = 'sending', sent_at = NULL WHERE event_id = $1`, [
        context.eventId,
      ]),
    );
    const duplicatesBefore = tlsServer.duplicates;
    const again = await sender.send(context, { subject: 'crash window', body: 'b' });
    expect(again).toEqual(first);
    // It reached the server again, with the same Message-ID, which the receiver deduplicates.
    expect(tlsServer.duplicates).toBe(duplicatesBefore + 1);
    expect(tlsServer.received.filter((m) => m.parsed.messageId === first.messageId)).toHaveLength(
      1,
    );
    const row = await withDb(t, (db) =>
      db.query(`SELECT state FROM mail_sends WHERE event_id = $1`, [context.eventId]),
    );
    expect(row.rows).toEqual([{ state: 'sent' }]);
  });

  it('answers from the installation its delivery read (no row read per send); concurrent sends share one mail_sends begin', async () => {
    const pluginId = await installMailChannel(server(starttlsServer, 'starttls'));
    const projectId = await project(pluginId);
    // What a delivery's claim reads, in one statement (modules/notifications): the snapshot
    // below says `[Known]` where the stored project config says `[Findings]`.
    const stored = await withDb(t, (db) =>
      db.query<{
        manifest: Buffer;
        settings: Record<string, unknown>;
        secret_settings: string | null;
        project_settings: Record<string, unknown>;
        project_secret_settings: string | null;
      }>(
        `SELECT p.manifest, p.settings, p.secret_settings, c.settings AS project_settings,
                c.secret_settings AS project_secret_settings
           FROM installed_plugins p JOIN project_channel_configs c ON c.installed_plugin_id = p.id
          WHERE p.id = $1 AND c.project_id = $2`,
        [pluginId, projectId],
      ),
    );
    const row = stored.rows[0]!;
    const installation: KnownInstallation = {
      artifactSha256: fixture.digest,
      enabled: true,
      manifest: installedManifest({ artifactSha256: fixture.digest, manifest: row.manifest }),
      settings: row.settings,
      secretSettings: row.secret_settings,
      projectSettings: { ...row.project_settings, subject_prefix: '[Known]' },
      projectSecretSettings: row.project_secret_settings,
    };
    const reads = jest.spyOn(t.app.get(MailSettingsRepository, { strict: false }), 'load');
    const query = jest.spyOn(t.app.get(DataSource), 'query');
    try {
      const before = starttlsServer.received.length;
      const contexts = Array.from({ length: 12 }, () => ({
        ...contextOf(pluginId, projectId),
        installation,
      }));
      const sent = await Promise.all(
        contexts.map((c, i) => sender.send(c, { subject: `Batch ${i}`, body: 'b' })),
      );
      expect(reads).not.toHaveBeenCalled();
      expect(starttlsServer.received).toHaveLength(before + 12);
      const subjects = starttlsServer.received.slice(before).map((m) => m.parsed.subject);
      expect(subjects.sort()).toEqual(contexts.map((_, i) => `[Known] Batch ${i}`).sort());
      const statements = query.mock.calls.map(([sql]) => String(sql));
      // The twelve sends started in one turn: one statement recorded all twelve as `sending`.
      expect(statements.filter((sql) => sql.includes('INSERT INTO mail_sends'))).toHaveLength(1);
      const marks = statements.filter((sql) => sql.includes("SET state = 'sent'"));
      expect(marks.length).toBeGreaterThanOrEqual(1);
      expect(marks.length).toBeLessThanOrEqual(12);
      const rows = await withDb(t, (db) =>
        db.query<{ state: string; message_id: string }>(
          `SELECT state, message_id FROM mail_sends WHERE event_id = ANY($1::uuid[])`,
          [contexts.map((c) => c.eventId)],
        ),
      );
      expect(rows.rows).toHaveLength(12);
      expect(rows.rows.every((r) => r.state === 'sent')).toBe(true);
      expect(rows.rows.map((r) => r.message_id).sort()).toEqual(
        sent.map((s) => s.messageId).sort(),
      );
      // Another version than the one the delivery read is refused, as a stored row would be.
      const other = await refusal(
        sender.send(
          { ...contextOf(pluginId, projectId), installation, versionDigest: 'e'.repeat(64) },
          { subject: 'stale', body: 'b' },
        ),
      );
      expect(other).toBeInstanceOf(HostCallDenied);
    } finally {
      reads.mockRestore();
      query.mockRestore();
    }
  });

  it('sends with STARTTLS: the session is upgraded before MAIL FROM', async () => {
    const pluginId = await installMailChannel(server(starttlsServer, 'starttls'));
    const projectId = await project(pluginId);
    const before = starttlsServer.received.length;
    await sender.send(contextOf(pluginId, projectId), { subject: 'STARTTLS', body: 'b' });
    expect(starttlsServer.received).toHaveLength(before + 1);
    expect(starttlsServer.received[before]!.secure).toBe(true);
    expect(starttlsServer.received[before]!.user).toBe(ACCOUNT.user);
  });

  it('sends in plain text with smtp_tls_mode none (allowed, unencrypted)', async () => {
    const pluginId = await installMailChannel(server(plainServer, 'none'));
    const projectId = await project(pluginId);
    const before = plainServer.received.length;
    await sender.send(contextOf(pluginId, projectId), { subject: 'plain', body: 'b' });
    expect(plainServer.received).toHaveLength(before + 1);
    expect(plainServer.received[before]!.secure).toBe(false);
  });

  it('refuses a server whose certificate names another host (no message is sent)', async () => {
    const pluginId = await installMailChannel(server(wrongNameServer, 'tls'));
    const projectId = await project(pluginId);
    const error = await refusal(
      sender.send(contextOf(pluginId, projectId), { subject: 'x', body: 'b' }),
    );
    expect(error).toBeInstanceOf(SmtpSendFailed);
    expect(error.message).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list|altnames/i);
    expect(wrongNameServer.received).toHaveLength(0);
  });

  it('does not fall back to plain text when starttls is asked of a server without STARTTLS', async () => {
    const pluginId = await installMailChannel(server(plainServer, 'starttls'));
    const projectId = await project(pluginId);
    const before = plainServer.received.length;
    const error = await refusal(
      sender.send(contextOf(pluginId, projectId), { subject: 'x', body: 'b' }),
    );
    expect(error).toBeInstanceOf(SmtpSendFailed);
    expect(error.message).toMatch(/STARTTLS/i);
    expect(plainServer.received).toHaveLength(before);
  });

  it('answers not_configured without smtp_host, and without recipients', async () => {
    const noServer = await installMailChannel({ smtp_from: FROM });
    const p1 = await project(noServer);
    expect(
      await refusal(sender.send(contextOf(noServer, p1), { subject: 'x', body: 'b' })),
    ).toBeInstanceOf(HostCallNotConfigured);

    const pluginId = await installMailChannel(server(tlsServer, 'tls'));
    const projectId = (await createProject(t, bearer(admin))).id as string;
    await putConfig(projectId, pluginId, { enabled: true }).expect(200);
    const error = await refusal(
      sender.send(contextOf(pluginId, projectId), { subject: 'x', body: 'b' }),
    );
    expect(error).toBeInstanceOf(HostCallNotConfigured);
    expect(error.message).toMatch(/recipients/);
  });

  it('refuses a project mail server at PUT and at send when allow_project_smtp is false', async () => {
    const pluginId = await installMailChannel(
      server(tlsServer, 'tls', { allow_project_smtp: false }),
    );
    const projectId = await project(pluginId);
    const own = {
      project_smtp_host: '127.0.0.1',
      project_smtp_port: projectServer.port,
      project_smtp_tls_mode: 'starttls',
      project_smtp_from: 'team@project.example',
    };
    const refused = await putConfig(projectId, pluginId, {
      enabled: true,
      recipients: 'a@example.org',
      ...own,
    }).expect(400);
    expect(refused.body.code).toBe('validation_failed');
    expect(JSON.stringify(refused.body)).toContain('settings.project_smtp_host');
    expect(JSON.stringify(refused.body)).toContain('allow_project_smtp');

    // A row that got there anyway (an older release, a changed installation) is refused at send.
    await withDb(t, (db) =>
      db.query(
        `UPDATE project_channel_configs SET settings = settings || $3::jsonb
          WHERE project_id = $1 AND installed_plugin_id = $2`,
        [projectId, pluginId, JSON.stringify(own)],
      ),
    );
    const before = projectServer.received.length;
    const error = await refusal(
      sender.send(contextOf(pluginId, projectId), { subject: 'x', body: 'b' }),
    );
    expect(error).toBeInstanceOf(HostCallDenied);
    expect(projectServer.received).toHaveLength(before);
  });

  it('lets a project use its own server when allowed, only a host of smtp_allowed_hosts when that is set; its password is sealed', async () => {
    const own = {
      project_smtp_host: '127.0.0.1',
      project_smtp_port: projectServer.port,
      project_smtp_tls_mode: 'starttls',
      project_smtp_username: PROJECT_ACCOUNT.user,
      project_smtp_password: PROJECT_ACCOUNT.pass,
      project_smtp_from: 'team@project.example',
    };
    const listed = await installMailChannel(
      server(tlsServer, 'tls', {
        allow_project_smtp: true,
        smtp_allowed_hosts: 'mail.project.example',
      }),
    );
    const p1 = await project(listed);
    const refused = await putConfig(p1, listed, {
      enabled: true,
      recipients: 'a@example.org',
      ...own,
    }).expect(400);
    expect(JSON.stringify(refused.body)).toContain('smtp_allowed_hosts');

    const allowed = await installMailChannel(
      server(tlsServer, 'tls', {
        allow_project_smtp: true,
        smtp_allowed_hosts: 'mail.project.example, 127.0.0.1',
      }),
    );
    const anyHost = await installMailChannel(
      server(tlsServer, 'tls', { allow_project_smtp: true }),
    );
    for (const pluginId of [allowed, anyHost]) {
      const projectId = await project(pluginId, own);
      const stored = await withDb(t, (db) =>
        db.query<{ secret_settings: string }>(
          `SELECT secret_settings FROM project_channel_configs WHERE project_id = $1`,
          [projectId],
        ),
      );
      expect(stored.rows[0]!.secret_settings).not.toContain(PROJECT_ACCOUNT.pass);
      const beforeOwn = projectServer.received.length;
      const beforeInstallation = tlsServer.received.length;
      const sent = await sender.send(contextOf(pluginId, projectId), {
        subject: 'own server',
        body: `not ${PROJECT_ACCOUNT.pass}`,
      });
      expect(sent.messageId).toMatch(/@project\.example>$/);
      expect(projectServer.received).toHaveLength(beforeOwn + 1);
      expect(tlsServer.received).toHaveLength(beforeInstallation);
      const mail = projectServer.received[beforeOwn]!;
      expect(mail.user).toBe(PROJECT_ACCOUNT.user);
      expect(mail.parsed.from?.text).toBe('team@project.example');
      expect(mail.raw).not.toContain(PROJECT_ACCOUNT.pass);
    }
  });

  it('refuses invalid recipients and TLS modes at PUT (400 with the field)', async () => {
    const pluginId = await installMailChannel(
      server(tlsServer, 'tls', { allow_project_smtp: true }),
    );
    const projectId = (await createProject(t, bearer(admin))).id as string;
    const bad = await putConfig(projectId, pluginId, {
      recipients: 'not-an-address, a@example.org',
    }).expect(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(JSON.stringify(bad.body)).toContain('settings.recipients');
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.org`).join(',');
    expect(
      JSON.stringify((await putConfig(projectId, pluginId, { recipients: many }).expect(400)).body),
    ).toContain('at most 50');
    const mode = await putConfig(projectId, pluginId, {
      recipients: 'a@example.org',
      project_smtp_host: '127.0.0.1',
      project_smtp_from: 'a@example.org',
      project_smtp_tls_mode: 'ssl3',
    }).expect(400);
    expect(JSON.stringify(mode.body)).toContain('settings.project_smtp_tls_mode');
  });

  it('puts every mail server through the outbound guard: metadata addresses always, local ones unless OUTBOUND_ALLOW_LOCAL_DIAL', async () => {
    const targets = t.app.get(SmtpTargets, { strict: false });
    const metadata = await refusal(targets.check('169.254.169.254', 25));
    expect(metadata).toBeInstanceOf(SmtpTargetRefused);
    const strict = new SmtpTargets(
      { ...t.config, outbound: { ...t.config.outbound, allowLocalDial: false } },
      t.app.get(FindingsMetrics, { strict: false }),
    );
    const local = await refusal(strict.check('127.0.0.1', tlsServer.port));
    expect(local).toBeInstanceOf(SmtpTargetRefused);
    expect((local as SmtpTargetRefused).reason).toBe('address_not_allowed');
    expect(await targets.check('127.0.0.1', tlsServer.port)).toEqual({
      address: '127.0.0.1',
      port: tlsServer.port,
    });
  });

  it('delivers through the runner: a native channel’s SendEmail host call reaches the stand-in for the delivery’s project', async () => {
    const pluginId = await installMailChannel(server(starttlsServer, 'starttls'));
    const projectId = await project(pluginId);
    const client = t.app.get(PluginRunnerClient, { strict: false });
    await client.load({
      pluginId,
      version: '1.0.0',
      versionDigest: fixture.digest,
      runtime: 'native',
      manifest: fixture.manifestBytes,
      signature: fixture.signature,
      source: { id: 'catalog-mail', publicKey: publisher.publicKeyPem, allowsNative: true },
      artifact: fixture.artifact,
      permittedHosts: [],
    });
    const eventId = randomUUID();
    const before = starttlsServer.received.length;
    const invocation = {
      context: contextOf(pluginId, projectId, eventId),
      capability: 'notification_channel',
      operation: 'deliver',
      payload: { event: { kind: 'new_findings', total: 2 } },
      settings: { mode: 'email', email_subject: 'New findings: 2' },
      idempotencyKey: `ntf:${eventId}:${pluginId}`,
    };
    const result = await client.invoke(invocation);
    expect(result).toMatchObject({ ok: true, value: { delivered: true } });
    expect(starttlsServer.received).toHaveLength(before + 1);
    const mail = starttlsServer.received[before]!;
    expect(mail.parsed.subject).toBe('[Findings] New findings: 2');
    expect(mail.parsed.text).toBe(`Event new_findings for project ${projectId}\n`);
    const messageId = mail.parsed.messageId as string;
    expect((result as { value: { message: string } }).value.message).toBe(`mailed ${messageId}`);
    await client.unload(pluginId);
    // The runner handed the plugin the installation's SMTP password (a secret setting of its
    // manifest) and logged the whole exchange: the value appears nowhere in its log.
    expect(runner.output()).toContain('native plugin loaded');
    expect(runner.output()).not.toContain(ACCOUNT.pass);
  });
});
