import { waitFor } from '@platform/testing';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { bearer, createProduct, createProject } from './catalog';
import type { Product } from './findings-seed';
import { uploadReport, waitForReport, type ReportView } from './reports';
import type { Login } from './sessions';
import type { TestApp } from './test-app';

/** A statement on the test app's database. */
export function query<T = Record<string, unknown>>(
  t: TestApp,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  return t.app.get(DataSource).query(text, values) as Promise<T[]>;
}

/** Environment of a stack whose automatic closure runs fast (attempts 30 ms apart). */
export const AUTO_CLOSURE_ENV: Record<string, string> = {
  FEATURE_AUTO_VERIFY_FIXES: 'true',
  AUTO_CLOSE_ATTEMPT_INTERVAL_MS: '30',
  OUTBOUND_ALLOW_HTTP: 'true',
  OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
};

/** One result of a test report: a code finding (rule + file + line) or a network one. */
export interface ResultSpec {
  rule: string;
  file?: string;
  line?: number;
  host?: string;
  port?: number;
}

export interface SarifOptions {
  scanner?: string;
  /** `run.artifacts`: files the run says it scanned besides those with results. */
  artifacts?: string[];
  /** `invocations[0].executionSuccessful`. */
  executionSuccessful?: boolean;
  /** Extra raw results appended (e.g. one the reader must skip). */
  rawResults?: unknown[];
}

/** A SARIF 2.1.0 log of `results` (one run). */
export function sarifOf(results: ResultSpec[], options: SarifOptions = {}): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: options.scanner ?? 'semgrep', version: '1.0.0' } },
        ...(options.artifacts
          ? { artifacts: options.artifacts.map((uri) => ({ location: { uri } })) }
          : {}),
        ...(options.executionSuccessful === undefined
          ? {}
          : { invocations: [{ executionSuccessful: options.executionSuccessful }] }),
        results: [
          ...results.map((r) =>
            r.host
              ? {
                  ruleId: r.rule,
                  level: 'error',
                  message: { text: `${r.rule} on ${r.host}` },
                  properties: { host: r.host, port: r.port ?? 443, protocol: 'tcp' },
                }
              : {
                  ruleId: r.rule,
                  level: 'warning',
                  message: { text: `${r.rule} in ${r.file}` },
                  locations: [
                    {
                      physicalLocation: {
                        artifactLocation: { uri: r.file },
                        region: { startLine: r.line ?? 1 },
                      },
                    },
                  ],
                },
          ),
          ...(options.rawResults ?? []),
        ],
      },
    ],
  });
}

/** A fresh project with auto-verify on (or off) and one product. */
export async function autoVerifyProduct(
  t: TestApp,
  admin: Login,
  autoVerify = true,
): Promise<Product> {
  const project = await createProject(t, bearer(admin));
  await bearer(admin)
    .apply(
      request(t.url)
        .put(`/api/v1/projects/${project.id}/settings`)
        .send({ auto_verify_fixes: autoVerify }),
    )
    .expect(200);
  return createProduct(t, bearer(admin), project.id);
}

/**
 * Uploads a report with `verify_fixes` (unless told otherwise), waits for it, then for its
 * closure check to end (when one runs).
 */
export async function scan(
  t: TestApp,
  admin: Login,
  product: Product,
  sarif: string,
  options: { verifyFixes?: boolean; expectCheck?: boolean } = {},
): Promise<ReportView> {
  const verify = options.verifyFixes ?? true;
  const reportId = await uploadReport(t, bearer(admin), product.id, sarif, {
    fields: verify ? { verify_fixes: 'true' } : {},
  });
  const report = await waitForReport(t, bearer(admin), reportId);
  if (report.status !== 'completed')
    throw new Error(`report ${report.status}: ${report.failure_code}`);
  if (options.expectCheck ?? verify) await checkFinished(t, reportId);
  return report;
}

/** Waits until the closure check of `reportId` is completed or skipped. */
export async function checkFinished(t: TestApp, reportId: string): Promise<CheckRow> {
  return waitFor(
    async () => {
      const [row] = await query<CheckRow & { finished_at: Date | null }>(
        t,
        `SELECT state, reason, candidates, absent, present, undetermined, closed, finished_at
           FROM auto_closure_checks WHERE report_id = $1`,
        [reportId],
      );
      if (!row?.finished_at) throw new Error(`check ${row?.state ?? 'not started'}`);
      return row;
    },
    { timeoutMs: 20_000, intervalMs: 25, what: `closure check of ${reportId}` },
  );
}

export interface CheckRow {
  state: string;
  reason: string | null;
  candidates: number;
  absent: number;
  present: number;
  undetermined: number;
  closed: number;
}

/** Status per rule id of the product's findings. */
export async function statusByRule(t: TestApp, product: Product): Promise<Record<string, string>> {
  const rows = (await query(
    t,
    `SELECT rule_id, status FROM findings WHERE product_id = $1 ORDER BY rule_id`,
    [product.id],
  )) as { rule_id: string; status: string }[];
  return Object.fromEntries(rows.map((r) => [r.rule_id, r.status]));
}

export async function findingIdByRule(t: TestApp, product: Product, rule: string): Promise<string> {
  const rows = (await query(t, `SELECT id FROM findings WHERE product_id = $1 AND rule_id = $2`, [
    product.id,
    rule,
  ])) as { id: string }[];
  if (rows.length !== 1) throw new Error(`${rows.length} findings of rule ${rule}`);
  return rows[0].id;
}

/** A callback key made through the admin route (its secret is only in this answer). */
export interface CallbackKey {
  id: string;
  key_id: string;
  secret: string;
}

export async function createCallbackKey(
  t: TestApp,
  admin: Login,
  body: { name?: string; project_id?: string } = {},
): Promise<CallbackKey> {
  const res = await bearer(admin)
    .apply(
      request(t.url)
        .post('/api/v1/admin/scanner-callback-keys')
        .send({ name: 'scanner', ...body }),
    )
    .expect(201);
  return (res.body as { data: CallbackKey }).data;
}

export function sign(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface CallbackResult {
  finding_id: string;
  result: 'absent' | 'present' | 'undetermined';
  request_id?: string;
}

/** POSTs a signed callback (the body exactly as signed); returns the raw answer. */
export function sendCallback(
  t: TestApp,
  key: Pick<CallbackKey, 'key_id' | 'secret'>,
  results: CallbackResult[],
  options: { timestamp?: number; body?: string; signature?: string } = {},
): Promise<request.Response> {
  const body = options.body ?? JSON.stringify({ scanner: 'semgrep', results });
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return request(t.url)
    .post('/api/v1/scanner-callbacks/verify-finding')
    .set('Content-Type', 'application/json')
    .set('X-Scanner-Key-Id', key.key_id)
    .set('X-Scanner-Timestamp', String(timestamp))
    .set('X-Scanner-Signature', options.signature ?? sign(key.secret, timestamp, body))
    .send(body);
}

/** A re-verification request as the scanner stand-in received it. */
export interface ReceivedRequest {
  request_id: string;
  finding_id: string;
  location: Record<string, unknown>;
}

/**
 * A scanner's re-verification endpoint on loopback: checks our signature with the endpoint's
 * secret, records every request and, when `answer` says so, answers through the signed callback
 * route as a real scanner would.
 */
export class ScannerStandIn {
  readonly received: ReceivedRequest[] = [];
  readonly badSignatures: number[] = [];
  endpointSecret = '';
  /** The answer per finding id; undefined: no answer. */
  answer: (findingId: string) => CallbackResult['result'] | undefined = () => 'absent';
  private server: Server | undefined;
  private pending: Promise<unknown>[] = [];

  constructor(
    private readonly t: TestApp,
    private readonly key: CallbackKey,
  ) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}/verify`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  /** Registers this endpoint for the project (and keeps the secret it is given). */
  async register(admin: Login, projectId: string): Promise<void> {
    const res = await bearer(admin)
      .apply(
        request(this.t.url)
          .put(`/api/v1/projects/${projectId}/verification-endpoint`)
          .send({ url: this.url }),
      )
      .expect(200);
    const secret = (res.body as { data: { secret?: string } }).data.secret;
    if (secret) this.endpointSecret = secret;
  }

  /** Waits for the answers sent so far. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  async close(): Promise<void> {
    await this.settled();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const timestamp = Number(req.headers['x-findings-timestamp']);
    if (req.headers['x-findings-signature'] !== sign(this.endpointSecret, timestamp, body)) {
      this.badSignatures.push(timestamp);
      res.writeHead(401).end();
      return;
    }
    const requests = (JSON.parse(body) as { requests: ReceivedRequest[] }).requests;
    this.received.push(...requests);
    res.writeHead(202).end();
    const results = requests
      .map((r) => ({
        finding_id: r.finding_id,
        request_id: r.request_id,
        result: this.answer(r.finding_id),
      }))
      .filter((r): r is CallbackResult & { request_id: string } => r.result !== undefined);
    if (results.length > 0) {
      this.pending.push(
        sendCallback(this.t, this.key, results).then((answer) => {
          if (answer.status !== 200) throw new Error(`callback ${answer.status}: ${answer.text}`);
        }),
      );
    }
  }
}

/** Waits for the stand-in's answers, then for the closures they cause. */
export async function settle(standIn: ScannerStandIn): Promise<void> {
  await standIn.settled();
}
