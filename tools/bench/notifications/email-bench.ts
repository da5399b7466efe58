/**
 * E-mail notification benchmark (issue 27, design §7; not part of `npm test`). From the root:
 *
 *   bash tools/stack/stack.sh up
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/notifications/email-bench.ts
 *
 * The catalog's e-mail channel (tools/catalog/plugins/email-channel, built and signed by
 * tools/catalog/build-native.mjs) in a real plugin runner process; the findings worker in this
 * process (the e2e set-up, stack PostgreSQL + Redis) answers its `send-email` host call through
 * modules/mail (the service's own pooled SMTP sender, PIPELINING, STARTTLS, certificate verified
 * against a per-run test CA) to a loopback SMTP server (test/support/smtp-stand-in.ts: smtp-server + mailparser, AUTH).
 *
 * BENCH_MESSAGES (10 000) single-finding `new_findings` notifications are inserted sealed
 * (coalescing bypassed) for one project, with one pending delivery each and their `deliver`
 * jobs, before the worker starts. Measured on the database clock: first claim (first row seen
 * leaving `pending`, polled every 20 ms) → last `delivered_at`; messages/s. Target ≥ 500 msg/s.
 * Reference in the same run: the same messages (subjects, bodies, recipients as received) sent
 * straight to the same server by one pooled nodemailer client (same pool size as the service).
 * Env: BENCH_MESSAGES, NOTIFICATION_CONCURRENCY (default 32), PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE
 * (default 60000), SMTP_POOL_CONNECTIONS (default 5), BENCH_RUNNER_NODE_ARGS (node flags of the
 * runner process, e.g. `--cpu-prof --cpu-prof-dir=DIR`; space separated).
 *
 * On a shared, loaded machine the rate says little; compare CPU milliseconds per delivered
 * message, printed per process over the service phase: this process (API + worker, from
 * process.cpuUsage), the runner and its channel process, the PostgreSQL backends of the run's
 * own database and the SMTP server process (all from /proc/<pid>/stat), and the database's
 * transactions per message (pg_stat_database).
 */
import { publisherKey } from '@platform/plugin-protocol/testing';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { createTransport } from 'nodemailer';
import { DataSource } from 'typeorm';
import { addJob } from '@platform/queue';
import {
  deliverJobId,
  NOTIFICATION_DELIVER,
} from '../../../apps/findings-service/src/modules/notification-queue/notification-deliver.job';
import { NotificationQueue } from '../../../apps/findings-service/src/modules/notification-queue/notification-queue.provider';
import { MailSendsRepository } from '../../../apps/findings-service/src/modules/mail/mail-sends.repository';
import { PluginMailSender } from '../../../apps/findings-service/src/modules/mail/plugin-mail.port';
import { SmtpTransports } from '../../../apps/findings-service/src/modules/mail/smtp-transports';
import { NotificationsRepository } from '../../../apps/findings-service/src/modules/notifications/notifications.repository';
import { InstalledPluginsService } from '../../../apps/findings-service/src/modules/plugins/installed-plugins/installed-plugins.service';
import { NotificationDeliveryService } from '../../../apps/findings-service/src/modules/notifications/notification-delivery.service';
import { HostCallResponder } from '../../../apps/findings-service/src/modules/plugin-runner-client/host-call-responder';
import { PluginRunnerClient } from '../../../apps/findings-service/src/modules/plugin-runner-client/plugin-runner.client';
import { PluginSecretBox } from '../../../apps/findings-service/src/modules/plugins/installed-plugins/plugin-secret-box';
import {
  RUNNER_TOKEN,
  startRunnerProcess,
} from '../../../apps/findings-service/test/catalog-plugins/support/catalog-plugin-lab';
import {
  buildChannel,
  NATIVE_NODE_PATH,
} from '../../../apps/findings-service/test/catalog-plugins/support/channel-lab';
import { configureChannel } from '../../../apps/findings-service/test/notifications/support';
import { freshProduct } from '../../../apps/findings-service/test/support/findings-seed';
import {
  startIngestion,
  startWorker,
} from '../../../apps/findings-service/test/support/ingestion-env';
import {
  makeTestPki,
  type TestPki,
} from '../../../apps/findings-service/test/support/smtp-stand-in';
import { ownCpuSeconds, treeCpuSeconds } from '../support/process-cpu';

const MESSAGES = Number(process.env['BENCH_MESSAGES'] ?? 10_000);
const CONCURRENCY = process.env['NOTIFICATION_CONCURRENCY'] ?? '32';
const RATE = process.env['PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE'] ?? '60000';
const POOL = Number(process.env['SMTP_POOL_CONNECTIONS'] ?? 5);
const RUNNER_NODE_ARGS = (process.env['BENCH_RUNNER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
const ACCOUNT = { user: 'bench-mailer', pass: 'bench-smtp-pass-1f2e3d' };
const FROM = 'findings@findings.example';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wall time spent in a few stages of the delivery path (this process only), for the report. */
const stages = new Map<string, number[]>();
function timeStage(proto: object, method: string, name: string): void {
  const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  target[method] = async function timed(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      const s = stages.get(name) ?? [];
      s.push(performance.now() - started);
      stages.set(name, s);
    }
  };
}
timeStage(NotificationDeliveryService.prototype, 'attempt', 'delivery attempt (claim -> finish)');
timeStage(NotificationsRepository.prototype, 'claim', '  claim (with context and installation)');
timeStage(InstalledPluginsService.prototype, 'ensureLoaded', '  ensureLoaded');
timeStage(PluginRunnerClient.prototype, 'load', '    runner load (Load RPC)');
timeStage(NotificationsRepository.prototype, 'finishDelivered', '  finish delivered');
timeStage(NotificationsRepository.prototype, 'finishRetry', '  finish retry');
timeStage(PluginRunnerClient.prototype, 'invoke', '  runner invoke (deliver)');
timeStage(HostCallResponder.prototype, 'answer', '    host call answered by the service');
timeStage(PluginMailSender.prototype, 'send', '      send-email (settings, mail_sends, SMTP)');
timeStage(MailSendsRepository.prototype, 'begin', '        mail_sends begin (shared statement)');
timeStage(SmtpTransports.prototype, 'send', '        SMTP send (own pooled sender)');
timeStage(MailSendsRepository.prototype, 'markSent', '        mail_sends sent (shared statement)');

interface SmtpProcess {
  port: number;
  pid: number;
  stats(): Promise<{ received: number; duplicates: number }>;
  messages(limit: number): Promise<{ to: string[]; subject: string; text: string }[]>;
  stop(): Promise<void>;
}

/** The SMTP stand-in forked into its own process (smtp-server-process.ts), over IPC. */
async function startSmtpProcess(pki: TestPki): Promise<SmtpProcess> {
  const child = fork(join(__dirname, 'smtp-server-process.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(request: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (answer) => resolve(answer as T));
      child.once('exit', (code) => reject(new Error(`SMTP server process exited (${code})`)));
      child.send(request as object);
    });
  const { remove: _remove, ...files } = pki;
  const { port } = await ask<{ port: number }>({ start: { pki: files, account: ACCOUNT } });
  return {
    port,
    pid: child.pid as number,
    stats: () => ask({ stats: true }),
    messages: async (limit) =>
      (
        await ask<{ messages: { to: string[]; subject: string; text: string }[] }>({
          messages: limit,
        })
      ).messages,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

/**
 * CPU seconds of the PostgreSQL backends serving this run's database (a per-run clone, so no
 * other client's) from /proc, and its committed + rolled back transactions.
 */
async function databaseCpu(db: DataSource): Promise<{ seconds: number; transactions: number }> {
  // Statistics reach pg_stat_database when a backend goes idle; give them a moment.
  await sleep(1200);
  const pids = (await db.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
  )) as { pid: number }[];
  const [stat] = (await db.query(
    `SELECT (xact_commit + xact_rollback)::bigint::text AS n FROM pg_stat_database
      WHERE datname = current_database()`,
  )) as { n: string }[];
  const seconds = pids.reduce((sum, p) => sum + treeCpuSeconds(p.pid), 0);
  return { seconds, transactions: Number(stat?.n ?? 0) };
}

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus()[0]?.model ?? '?'} x${availableParallelism()}, ${Math.round(totalmem() / 2 ** 30)} GiB; ` +
      `load before ${load()}`,
  );
  console.log(
    `messages ${MESSAGES}; NOTIFICATION_CONCURRENCY=${CONCURRENCY}; ` +
      `PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE=${RATE}; SMTP_POOL_CONNECTIONS=${POOL}`,
  );
  const pki = makeTestPki();
  const smtp = await startSmtpProcess(pki);
  const publisher = publisherKey();
  const channel = buildChannel('email-channel', publisher);
  const { runner, grpcPort } = await startRunnerProcess(
    {
      PLUGIN_NATIVE_NODE_PATH: NATIVE_NODE_PATH,
      PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
      PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE: RATE,
    },
    RUNNER_NODE_ARGS,
  );
  const stack = await startIngestion({
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      SMTP_CA_FILE: pki.caFile,
      SMTP_POOL_CONNECTIONS: String(POOL),
      OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
      NOTIFICATION_CONCURRENCY: CONCURRENCY,
      // The reconciler must not add jobs of its own while the bench's jobs are queued.
      NOTIFICATION_RECONCILE_INTERVAL_MS: '600000',
    },
  });
  const { t } = stack;
  const db = t.app.get(DataSource);
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  try {
    const [source] = (await db.query(
      `INSERT INTO plugin_sources (name, catalog_url, public_key, is_active, allows_native)
       VALUES ($1, 'https://catalog.bench.example/c.json', $2, true, true) RETURNING id`,
      [`email bench ${randomUUID()}`, publisher.publicKeyPem],
    )) as { id: string }[];
    await db.query(
      `INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, $3)
       ON CONFLICT (digest) DO NOTHING`,
      [channel.sha256, channel.artifact, channel.artifact.length],
    );
    const settings = {
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_username: ACCOUNT.user,
      smtp_from: FROM,
      smtp_tls_mode: 'starttls',
    };
    const sealed = new PluginSecretBox(t.config).seal({ smtp_password: ACCOUNT.pass });
    const [installed] = (await db.query(
      `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime,
              enabled, version, artifact_sha256, manifest, signature, capabilities, settings,
              secret_settings)
       VALUES ('marketplace', $1, 'email-channel', 'native', true, $2, $3, $4, $5,
               '{notification_channel}', $6, $7) RETURNING id`,
      [
        source!.id,
        channel.manifest.version,
        channel.sha256,
        channel.manifestBytes,
        channel.signature.toString('base64'),
        JSON.stringify(settings),
        sealed,
      ],
    )) as { id: string }[];
    const pluginId = installed!.id;
    const product = await freshProduct(t, stack.admin);
    const projectId = product.project_id;
    await configureChannel(t, projectId, pluginId, {
      enabled: true,
      recipients: 'sec-team@example.org, ops@example.org',
      subject_prefix: '[Bench]',
    });

    // BENCH_MESSAGES sealed single-finding notifications, one pending delivery each.
    const rows = (await db.query(
      `WITH n AS (
         INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
                opened_at, last_added_at, sealed_at)
         SELECT gen_random_uuid(), $1::uuid, 'new_findings', 'sealed', '{"HIGH": 1}'::jsonb,
                jsonb_build_array(jsonb_build_object('id', gen_random_uuid(),
                  'title', 'Bench finding ' || i, 'severity', 'HIGH', 'status', 'new',
                  'product_id', $3::text, 'product', 'bench', 'location', 'src/f' || i || '.ts:1')),
                1, now(), now(), now()
           FROM generate_series(1, $4::int) AS i
         RETURNING id)
       INSERT INTO notification_deliveries (id, notification_id, project_id, installed_plugin_id,
              idempotency_key, threshold, state, attempts, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), n.id, $1::uuid, $2::uuid, 'ntf:' || n.id || ':' || $2::text,
              '{"min_severity": "INFO", "notify_on_close": false, "fixed_min_severity": null}'::jsonb,
              'pending', 0, now(), now(), now()
         FROM n RETURNING id::text AS id`,
      [projectId, pluginId, product.id, MESSAGES],
    )) as { id: string }[];
    const queue = t.app.get(NotificationQueue, { strict: false });
    for (let i = 0; i < rows.length; i += 500) {
      await Promise.all(
        rows.slice(i, i + 500).map((r) =>
          addJob(
            queue.queue,
            NOTIFICATION_DELIVER,
            { deliveryId: r.id },
            {
              jobId: deliverJobId(r.id, 0),
              removeOnComplete: true,
            },
          ),
        ),
      );
    }
    console.log(`${rows.length} deliveries and jobs queued; load ${load()}; starting the worker`);

    const runnerPid = runner.child.pid as number;
    const cpu0 = {
      own: ownCpuSeconds(),
      runner: treeCpuSeconds(runnerPid),
      smtp: treeCpuSeconds(smtp.pid),
      db: await databaseCpu(db),
    };
    const startedAt = new Date().toISOString();
    worker = await startWorker(t, stack.env.vars);
    let firstClaim: Date | undefined;
    let claimCpu = { own: 0, runner: 0 };
    let maxInFlight = 0;
    const deadline = Date.now() + 1_800_000;
    for (;;) {
      const [s] = (await db.query(
        `SELECT now() AS now,
                count(*) FILTER (WHERE state <> 'pending')::int AS moved,
                count(*) FILTER (WHERE state = 'delivering')::int AS delivering,
                count(*) FILTER (WHERE state IN ('delivered', 'failed', 'cancelled'))::int AS done
           FROM notification_deliveries WHERE project_id = $1`,
        [projectId],
      )) as { now: Date; moved: number; delivering: number; done: number }[];
      if (!firstClaim && s!.moved > 0) {
        firstClaim = s!.now;
        // The worker's start-up (a Nest application in this process) is behind us here.
        claimCpu = { own: ownCpuSeconds(), runner: treeCpuSeconds(runnerPid) };
      }
      maxInFlight = Math.max(maxInFlight, s!.delivering);
      if (s!.done >= rows.length) break;
      if (Date.now() > deadline) throw new Error(`timed out: ${s!.done}/${rows.length} finished`);
      await sleep(firstClaim ? 500 : 20);
    }
    const [end] = (await db.query(
      `SELECT max(delivered_at) AS last, count(*) FILTER (WHERE state = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE state = 'failed')::int AS failed,
              max(attempts)::int AS max_attempts
         FROM notification_deliveries WHERE project_id = $1`,
      [projectId],
    )) as { last: Date; delivered: number; failed: number; max_attempts: number }[];
    // Steady state: the middle 80 % of the deliveries (10th -> 90th delivered_at), which leaves
    // out the start (the runner loads of the first claims) and the tail.
    const [mid] = (await db.query(
      `SELECT percentile_disc(0.1) WITHIN GROUP (ORDER BY delivered_at) AS p10,
              percentile_disc(0.9) WITHIN GROUP (ORDER BY delivered_at) AS p90
         FROM notification_deliveries WHERE project_id = $1 AND state = 'delivered'`,
      [projectId],
    )) as { p10: Date; p90: Date }[];
    const steadyRate = (0.8 * end!.delivered) / ((mid!.p90.getTime() - mid!.p10.getTime()) / 1000);
    const cpu1 = {
      own: ownCpuSeconds(),
      runner: treeCpuSeconds(runnerPid),
      smtp: treeCpuSeconds(smtp.pid),
      db: await databaseCpu(db),
    };
    const received = await smtp.stats();
    const serviceMs = end!.last.getTime() - (firstClaim as Date).getTime();
    const serviceRate = (end!.delivered / serviceMs) * 1000;
    console.log(
      `service: worker started ${startedAt}, first claim ${(firstClaim as Date).toISOString()}, ` +
        `last delivered ${end!.last.toISOString()}; delivered ${end!.delivered}, failed ${end!.failed}, ` +
        `max attempts ${end!.max_attempts}; most in 'delivering' at a poll ${maxInFlight}; ` +
        `CPU s: bench process (API + worker) ${(cpu1.own - cpu0.own).toFixed(1)}, ` +
        `runner + plugin ${(cpu1.runner - cpu0.runner).toFixed(1)}; SMTP received ${received.received}, duplicates ${received.duplicates}; load ${load()}`,
    );
    await worker.close();
    worker = undefined;
    const per = (seconds: number) => ((seconds * 1000) / end!.delivered).toFixed(2);
    const cpu = {
      own: cpu1.own - cpu0.own,
      runner: cpu1.runner - cpu0.runner,
      smtp: cpu1.smtp - cpu0.smtp,
      db: cpu1.db.seconds - cpu0.db.seconds,
    };
    console.log(
      `CPU ms per delivered message: bench process (API + worker) ${per(cpu.own)}, ` +
        `runner + channel process ${per(cpu.runner)}, PostgreSQL backends of this database ` +
        `${per(cpu.db)}, SMTP server process ${per(cpu.smtp)}; service total (worker + runner + ` +
        `PostgreSQL) ${per(cpu.own + cpu.runner + cpu.db)}; database transactions per message ` +
        `${((cpu1.db.transactions - cpu0.db.transactions) / end!.delivered).toFixed(2)} ` +
        `(includes the bench's polls)`,
    );
    console.log(
      `CPU ms per delivered message from the first claim (the worker's start-up left out, within ` +
        `20 ms): bench process (API + worker) ${per(cpu1.own - claimCpu.own)}, runner + channel ` +
        `process ${per(cpu1.runner - claimCpu.runner)}; with PostgreSQL as above ` +
        `${per(cpu1.own - claimCpu.own + cpu1.runner - claimCpu.runner + cpu.db)}`,
    );
    console.log(
      'wall time per call in this process (concurrent calls overlap): calls, mean, p50, max:',
    );
    for (const [name, st] of stages) {
      const sorted = [...st].sort((a, b) => a - b);
      const mean = st.reduce((a, b) => a + b, 0) / st.length;
      const p50 = sorted[Math.floor(sorted.length / 2)] as number;
      console.log(
        `  ${name}: ${st.length}, ${mean.toFixed(0)} ms, ${p50.toFixed(0)} ms, ${(sorted.at(-1) as number).toFixed(0)} ms`,
      );
    }

    // Reference: the same messages straight to the same server, one pooled nodemailer client.
    const messages = await smtp.messages(MESSAGES);
    const receivedBefore = (await smtp.stats()).received;
    const client = createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      requireTLS: true,
      auth: ACCOUNT,
      pool: true,
      maxConnections: POOL,
      maxMessages: Infinity,
      tls: { ca: readFileSync(pki.caFile), servername: '127.0.0.1', rejectUnauthorized: true },
    });
    const refCpu0 = ownCpuSeconds();
    const refStart = performance.now();
    await Promise.all(
      messages.map((m) =>
        client.sendMail({
          from: FROM,
          to: m.to,
          subject: m.subject,
          text: m.text,
          messageId: `<${randomUUID().replace(/-/g, '')}@findings.example>`,
        }),
      ),
    );
    const refMs = performance.now() - refStart;
    const refCpu = ownCpuSeconds() - refCpu0;
    client.close();
    console.log(
      `reference CPU ms per message: client ${((refCpu * 1000) / messages.length).toFixed(2)}`,
    );
    const refCount = (await smtp.stats()).received - receivedBefore;
    const refRate = (refCount / refMs) * 1000;
    console.log(
      `\n${MESSAGES} single-finding e-mail notifications, STARTTLS loopback SMTP:\n` +
        `  service (first claim -> last delivered): ${(serviceMs / 1000).toFixed(2)} s, ${serviceRate.toFixed(0)} msg/s (target >= 500)\n` +
        `  service, steady state (10th -> 90th delivered): ${steadyRate.toFixed(0)} msg/s\n` +
        `  reference (one pooled nodemailer client, ${POOL} connections, the SMTP server in its own process): ${(refMs / 1000).toFixed(2)} s, ${refRate.toFixed(0)} msg/s (${refCount} received; CPU ${refCpu.toFixed(1)} s, client)\n` +
        `  ratio service/reference: ${(serviceRate / refRate).toFixed(3)}\n` +
        `  NOTIFICATION_CONCURRENCY=${CONCURRENCY}, PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE=${RATE}\n` +
        `load after ${load()}`,
    );
  } finally {
    await worker?.close();
    await stack.close();
    await runner.stop();
    await smtp.stop();
    pki.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
