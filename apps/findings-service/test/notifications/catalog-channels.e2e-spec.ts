// test-lane: waiting — ~107 of its ~119 s are the chat API's outage and the retries' back-off
// (tools/test/lanes.js).
// Over the 60 s budget of docs/testing.md ("Time budget"), ~125 s on a quiet machine: it builds
// and signs the six catalog channel plugins, runs them in a real plugin runner against their
// loopback chat stand-ins, and one test keeps a chat API down for a whole minute (issue 27: the
// message arrives once after the outage) — an idle wait, no CPU, that no shorter test can prove.
import type { INestApplicationContext } from '@nestjs/common';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { waitFor, type ServiceProcess } from '@platform/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MailSettingsRepository } from '../../src/modules/mail/mail-settings.repository';
import { NotificationsRepository } from '../../src/modules/notifications/notifications.repository';
import { HostCallResponder } from '../../src/modules/plugin-runner-client/host-call-responder';
import { installedManifestParses } from '../../src/modules/plugins/installed-plugins/installed-manifest';
import { InstalledPluginsRepository } from '../../src/modules/plugins/installed-plugins/installed-plugins.repository';
import { PluginSecretBox } from '../../src/modules/plugins/installed-plugins/plugin-secret-box';
import { RUNNER_TOKEN, startRunnerProcess } from '../catalog-plugins/support/catalog-plugin-lab';
import {
  buildChannel,
  NATIVE_NODE_PATH,
  type BuiltChannel,
  type ChannelName,
} from '../catalog-plugins/support/channel-lab';
import {
  startMattermostStandIn,
  startMaxStandIn,
  startSlackStandIn,
  startTeamsStandIn,
  startTelegramStandIn,
  type ChatRequest,
  type ChatStandIn,
} from '../catalog-plugins/support/chat-stand-ins';
import { bearer } from '../support/catalog';
import { freshProduct, listFindings, type Product } from '../support/findings-seed';
import { startIngestion, startWorker, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { makeTestPki, SmtpStandIn, type TestPki } from '../support/smtp-stand-in';
import { deliveriesOf, sarifWithLevels, type StoredDelivery } from './support';

/**
 * The whole path with the official catalog's six notification channels (tools/catalog/plugins):
 * a report uploaded to the service → the action-log feed → one sealed notification → one
 * delivery per enabled channel → the real plugin runner → each native channel → its loopback
 * chat API stand-in, and the e-mail channel → the service's `send-email` → a real SMTP server
 * (STARTTLS, test CA). Each stand-in must see each message exactly once (its Idempotency-Key,
 * the mail's Message-ID); a chat API down for a minute gets the message once after it returns.
 */
jest.setTimeout(300_000);

const key = publisherKey();
const MAIL_ACCOUNT = { user: 'findings-mailer', pass: 'smtp-password-never-logged-0123' };
const SECRETS = {
  telegram: '123456:telegram-bot-token-secret',
  slack: '/services/T000/B000/slackSecretPath0123',
  teams: '/webhookb2/teamsSecretPath-0123456789abcdef',
  mattermost: 'mmsecrethookid0123456789ab',
  max: 'max-secret-access-token-0123456789',
};

interface Channel {
  name: ChannelName;
  standIn?: ChatStandIn;
  /** Installation settings (administrator). */
  installation(): Record<string, unknown>;
  installationSecrets?: Record<string, string>;
  /** Per-project settings, secrets included (sealed by the config route). */
  project(standIn?: ChatStandIn): Record<string, unknown>;
  pluginId?: string;
}

let pki: TestPki;
let smtp: SmtpStandIn;
let runner: ServiceProcess;
let stack: IngestionStack;
let worker: INestApplicationContext | undefined;
/** A second Slack-shaped API that is down for a minute (its own project's webhook). */
let downSlack: ChatStandIn;
let downSince = 0;
let downProduct: Product;

const channels: Channel[] = [
  {
    name: 'telegram-channel',
    installation: () => ({ api_base_url: channel('telegram-channel').standIn?.url }),
    project: () => ({ chat_id: '-100777', bot_token: SECRETS.telegram }),
  },
  {
    name: 'slack-channel',
    installation: () => ({}),
    project: (s) => ({ webhook_url: `${s?.url}${SECRETS.slack}` }),
  },
  {
    name: 'teams-channel',
    installation: () => ({}),
    project: (s) => ({ webhook_url: `${s?.url}${SECRETS.teams}` }),
  },
  {
    name: 'mattermost-channel',
    installation: () => ({ chatserver_base_url: channel('mattermost-channel').standIn?.url }),
    project: (s) => ({
      webhook_url: `${s?.url}/hooks/${SECRETS.mattermost}`,
      channel: 'security',
    }),
  },
  {
    name: 'maxru-channel',
    installation: () => ({}),
    project: (s) => ({ chat_id: '4242', base_url: s?.url, access_token: SECRETS.max }),
  },
  {
    name: 'email-channel',
    installation: () => ({
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_username: MAIL_ACCOUNT.user,
      smtp_from: 'findings@findings.example',
      smtp_tls_mode: 'starttls',
    }),
    installationSecrets: { smtp_password: MAIL_ACCOUNT.pass },
    project: () => ({ recipients: 'sec-team@example.org', subject_prefix: '[Findings]' }),
  },
];

function channel(name: ChannelName): Channel {
  return channels.find((c) => c.name === name) as Channel;
}

async function install(c: Channel, built: BuiltChannel, sourceId: string): Promise<string> {
  const db = stack.t.app.get(DataSource);
  await db.query(
    `INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, $3)
     ON CONFLICT (digest) DO NOTHING`,
    [built.sha256, built.artifact, built.artifact.length],
  );
  const [row] = (await db.query(
    `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime,
            enabled, version, artifact_sha256, manifest, signature, capabilities, settings,
            secret_settings)
     VALUES ('marketplace', $1, $2, 'native', true, $3, $4, $5, $6, '{notification_channel}',
             $7, $8) RETURNING id`,
    [
      sourceId,
      c.name,
      built.manifest.version,
      built.sha256,
      built.manifestBytes,
      built.signature.toString('base64'),
      JSON.stringify(c.installation()),
      new PluginSecretBox(stack.t.config).seal(c.installationSecrets ?? {}),
    ],
  )) as { id: string }[];
  return row?.id as string;
}

/** The channel's settings for a project through the config route (secrets sealed there). */
async function configure(
  projectId: string,
  c: Channel,
  standIn: ChatStandIn | undefined,
): Promise<void> {
  await bearer(stack.admin)
    .apply(
      request(stack.t.url)
        .put(`/api/v1/projects/${projectId}/plugin-channels/${c.pluginId}/config`)
        .send({
          settings: {
            enabled: true,
            min_severity: 'HIGH',
            notify_on_close: true,
            fixed_min_severity: 'HIGH',
            ...c.project(standIn),
          },
        }),
    )
    .expect(200);
}

let scans = 0;
async function upload(product: Product, levels: string[]): Promise<void> {
  scans += 1;
  const id = await uploadReport(
    stack.t,
    bearer(stack.admin),
    product.id,
    sarifWithLevels(levels, `CatalogChannelsScanner${scans}`),
  );
  expect((await waitForReport(stack.t, bearer(stack.admin), id, 120_000)).status).toBe('completed');
}

/** Waits until the project's deliveries of `kind` are all delivered, one per channel. */
async function delivered(projectId: string, kind: string, count: number) {
  return waitFor(
    async () => {
      const rows = (await stack.t.app.get(DataSource).query(
        `SELECT d.installed_plugin_id::text AS plugin, d.idempotency_key AS key, d.state
           FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
          WHERE d.project_id = $1 AND n.kind = $2`,
        [projectId, kind],
      )) as { plugin: string; key: string; state: string }[];
      if (rows.length !== count || rows.some((r) => r.state !== 'delivered')) {
        throw new Error(`${kind}: ${JSON.stringify(rows)}`);
      }
      return rows;
    },
    { timeoutMs: 120_000, intervalMs: 250, what: `the ${kind} deliveries` },
  );
}

const keysAt = (s: ChatStandIn | undefined): string[] =>
  (s?.requests ?? []).map((r: ChatRequest) => r.idempotencyKey ?? '');

beforeAll(async () => {
  pki = makeTestPki();
  smtp = await new SmtpStandIn({ mode: 'starttls', pki, account: MAIL_ACCOUNT }).start();
  channel('telegram-channel').standIn = await startTelegramStandIn(SECRETS.telegram, '-100777');
  channel('slack-channel').standIn = await startSlackStandIn(SECRETS.slack);
  channel('teams-channel').standIn = await startTeamsStandIn(SECRETS.teams);
  channel('mattermost-channel').standIn = await startMattermostStandIn(SECRETS.mattermost);
  channel('maxru-channel').standIn = await startMaxStandIn(SECRETS.max, '4242');
  downSlack = await startSlackStandIn(SECRETS.slack);
  const built = new Map(channels.map((c) => [c.name, buildChannel(c.name, key)] as const));
  const started = await startRunnerProcess({
    PLUGIN_NATIVE_NODE_PATH: NATIVE_NODE_PATH,
    PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE: '6000',
  });
  runner = started.runner;
  stack = await startIngestion({
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      PUBLIC_WEB_URL: 'https://findings.example/',
      NOTIFICATION_FEED_INTERVAL_MS: '200',
      NOTIFICATION_QUIET_SECONDS: '1',
      NOTIFICATION_BACKOFF_BASE_SECONDS: '2',
      NOTIFICATION_RECONCILE_INTERVAL_MS: '1000',
      SMTP_CA_FILE: pki.caFile,
      // The SMTP stand-in listens on loopback: the guard must be told so explicitly.
      OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
    },
  });
  worker = await startWorker(stack.t, stack.env.vars);
  const [source] = (await stack.t.app.get(DataSource).query(
    `INSERT INTO plugin_sources (name, catalog_url, public_key, is_active, allows_native)
     VALUES ('official catalog (test key)', 'https://catalog.test.example/c.json', $1, true, true)
     RETURNING id`,
    [key.publicKeyPem],
  )) as { id: string }[];
  for (const c of channels) {
    c.pluginId = await install(c, built.get(c.name) as BuiltChannel, source?.id as string);
  }
  // The minute-long outage starts now and overlaps the other tests; the last test ends it.
  downProduct = await freshProduct(stack.t, stack.admin);
  await configure(downProduct.project_id, channel('slack-channel'), downSlack);
  await downSlack.down();
  downSince = Date.now();
  await upload(downProduct, ['error']);
}, 300_000);

afterAll(async () => {
  await worker?.close();
  await stack?.close();
  await runner?.stop();
  await Promise.all([...channels.map((c) => c.standIn?.close()), downSlack?.close(), smtp?.stop()]);
  pki?.remove();
});

describe('Notifications - the six catalog channels, end to end', () => {
  let product: Product;

  beforeAll(async () => {
    product = await freshProduct(stack.t, stack.admin);
    for (const c of channels) await configure(product.project_id, c, c.standIn);
  });

  it('an upload above min_severity reaches each of the six channels exactly once', async () => {
    await upload(product, ['error', 'error', 'note']);
    const rows = await delivered(product.project_id, 'new_findings', 6);
    for (const c of channels.filter((x) => x.standIn)) {
      const mine = rows.find((r) => r.plugin === c.pluginId);
      expect(keysAt(c.standIn)).toEqual([mine?.key]);
      expect(c.standIn?.requests[0]?.body).toContain('2 findings'); // the LOW one is below
    }
    await waitFor(() => expect(smtp.received).toHaveLength(1), { timeoutMs: 10_000 });
    const mail = smtp.received[0];
    expect(mail?.envelopeTo).toEqual(['sec-team@example.org']);
    expect(mail?.secure).toBe(true);
    expect(mail?.parsed.subject).toMatch(/^\[Findings\] New findings in .+: 2 findings$/);
    expect(mail?.raw).not.toContain(MAIL_ACCOUNT.pass);
    expect(smtp.duplicates).toBe(0);
    // Nothing arrives later (no second job, no reconciler re-add of a finished row).
    await new Promise((r) => setTimeout(r, 3_000));
    for (const c of channels.filter((x) => x.standIn)) expect(c.standIn?.requests).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);
  });

  it('a closure and a fixed summary reach each channel exactly once (a fixed finding is not repeated as a closure)', async () => {
    const listed = await listFindings(stack.t, bearer(stack.admin), {
      product_id: product.id,
      severity: 'HIGH',
    });
    const [closed, fixed] = listed.items;
    expect(closed?.title).not.toBe(fixed?.title);
    const patch = (id: string | undefined, status: string) =>
      bearer(stack.admin)
        .apply(
          request(stack.t.url)
            .patch(`/api/v1/findings/${id}`)
            .send({ status, justification: `${status} in the catalog channel test` }),
        )
        .expect(200);
    // Every channel is loaded by now: a delivery reads its installation once, in its claim
    // (docs/findings-service/notifications.md, "Reads per delivery") — not again for the
    // runner load check, the host calls (secrets, send-email) or the manifest.
    const installations = worker!.get(InstalledPluginsRepository, { strict: false });
    const reads = [
      jest.spyOn(installations, 'findById'),
      jest.spyOn(installations, 'projectSecretSettings'),
      jest.spyOn(worker!.get(MailSettingsRepository, { strict: false }), 'load'),
    ];
    const claims = jest.spyOn(worker!.get(NotificationsRepository, { strict: false }), 'claim');
    // The secrets travel with the invocation (docs/plugins/runner-api.md): the runner asks
    // no `get-secret` / `get-project-secret`; the one host call left is the e-mail's send.
    const answered = jest.spyOn(HostCallResponder.prototype, 'answer');
    const parses = installedManifestParses();
    let closures: Awaited<ReturnType<typeof delivered>>;
    let summaries: Awaited<ReturnType<typeof delivered>>;
    try {
      await patch(closed?.id, 'false_positive');
      await patch(fixed?.id, 'fixed');
      closures = await delivered(product.project_id, 'closed_findings', 6);
      summaries = await delivered(product.project_id, 'fixed_summary', 6);
      await waitFor(() => expect(smtp.received).toHaveLength(3), { timeoutMs: 10_000 });
      expect(claims.mock.calls.length).toBeGreaterThanOrEqual(12);
      for (const spy of reads) expect(spy).not.toHaveBeenCalled();
      expect(installedManifestParses()).toBe(parses);
      // (at least the closure's and the summary's mail; a retried send would add one)
      const calls = answered.mock.calls.map(([, call]) => call.call);
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(new Set(calls)).toEqual(new Set(['send_email']));
    } finally {
      for (const spy of [...reads, claims, answered]) spy.mockRestore();
    }
    for (const c of channels.filter((x) => x.standIn)) {
      const keys = keysAt(c.standIn);
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(3);
      expect(keys).toContain(closures.find((r) => r.plugin === c.pluginId)?.key);
      expect(keys).toContain(summaries.find((r) => r.plugin === c.pluginId)?.key);
      const closure = c.standIn?.requests.find(
        (r) => r.idempotencyKey === closures.find((x) => x.plugin === c.pluginId)?.key,
      );
      expect(closure?.body).toContain(closed?.title);
      expect(closure?.body).not.toContain(fixed?.title); // the fixed one: in the summary only
    }
    await waitFor(() => expect(smtp.received).toHaveLength(3), { timeoutMs: 10_000 });
    expect(smtp.duplicates).toBe(0);
  });

  it('a chat API down for a minute gets the message once after it returns', async () => {
    const pending = await deliveriesOf(stack.t, downProduct.project_id);
    expect(pending).toHaveLength(1);
    // Retried meanwhile (connection refused: transient), nothing delivered, nothing failed.
    await waitFor(
      async () => {
        const [d] = await deliveriesOf(stack.t, downProduct.project_id);
        if (!d || d.attempts < 2 || d.state !== 'pending') throw new Error(JSON.stringify(d));
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'retries during the outage' },
    );
    const left = 60_000 - (Date.now() - downSince);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    expect(downSlack.requests).toHaveLength(0);
    await downSlack.up();
    const done = await waitFor(
      async () => {
        const [d] = await deliveriesOf(stack.t, downProduct.project_id);
        if (d?.state !== 'delivered') throw new Error(JSON.stringify(d));
        return d as StoredDelivery;
      },
      { timeoutMs: 150_000, intervalMs: 500, what: 'the delivery after the outage' },
    );
    expect(keysAt(downSlack)).toEqual([done.idempotency_key]);
    expect(done.attempts).toBeGreaterThanOrEqual(3);
  });
});
