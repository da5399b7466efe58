import {
  appendFuzzReport,
  DatabaseDigest,
  failureSummary,
  formatFuzzResult,
  fuzzSettings,
  openApiOperations,
  runFuzz,
  sendRepeatedly,
  uniqueQueuePrefix,
  unsentRoutes,
  type FuzzOperation,
  type FuzzResult,
  type ServerLogLookup,
} from '@platform/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildOpenApiDocument } from '../../src/api/openapi/openapi-document';
import { startTestApp, type TestApp } from '../support/test-app';
import { FindingsFuzzSeed } from './fuzz-seed';
import {
  findingsEnvelopeProblem,
  replaceConsumed,
  signCallbacks,
  validFindingsRequest,
} from './fuzz-target';
import { ServerErrorLog } from './server-log';

const SPEC = 'apps/findings-service/test/fuzz';
const settings = fuzzSettings(process.env, { modestRequests: 1200, fullRequests: 6000 });
const NO_LIMIT = '100000000';
// A full run sends thousands of requests one by one: minutes, not seconds.
const RUN_TIMEOUT_MS = settings.size === 'full' ? 3_600_000 : 600_000;

describe('Fuzz - every route of the findings OpenAPI document', () => {
  let t: TestApp;
  let logDir: string;
  let result: FuzzResult;
  let serverLog: ServerLogLookup = () => undefined;

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'findings-fuzz-log-'));
    t = await startTestApp({
      RATE_LIMIT_AUTH: NO_LIMIT,
      RATE_LIMIT_API: NO_LIMIT,
      RATE_LIMIT_API_USER: NO_LIMIT,
      RATE_LIMIT_API_SERVICE_ACCOUNT: NO_LIMIT,
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      LOG_FILE_SINK_ENABLED: 'true',
      LOG_DIR: logDir,
      LOG_LEVEL: 'error',
      // Every route of the document: the flagged ones too.
      FEATURE_AUTO_VERIFY_FIXES: 'true',
      FEATURE_MANUAL_REVERIFICATION: 'true',
    });
    const seed = new FindingsFuzzSeed(t);
    await seed.seed();
    const dataSource = t.app.get(DataSource);
    const digest = await DatabaseDigest.create((sql) => dataSource.query(sql), {
      columns: {
        'service_accounts.last_used_at':
          'written after the answer by any request a key authenticated, refused ones included',
      },
    });
    console.log(
      `[fuzz] findings-service seed ${settings.seed} (FUZZ_SEED reproduces, FUZZ_SEED=random explores)`,
    );
    result = await runFuzz({
      service: 'findings-service',
      baseUrl: t.url,
      settings,
      // The document of the running app, minus the probe routes only the tests mount.
      operations: openApiOperations(buildOpenApiDocument(t.app)).filter(
        (op) => !op.path.startsWith('/api/v1/test-probe/'),
      ),
      roles: (op: FuzzOperation) =>
        op.security.length === 0
          ? { primary: 'anonymous', secondary: ['admin'], anonymous: 'anonymous' }
          : {
              primary: 'admin',
              secondary: op.security.includes('api_key')
                ? ['anonymous', 'service-account']
                : ['anonymous'],
              anonymous: 'anonymous',
            },
      credentials: (role): Record<string, string> =>
        role === 'admin'
          ? { authorization: `Bearer ${seed.admin.token}` }
          : role === 'service-account'
            ? { 'x-api-key': seed.serviceAccountKey }
            : {},
      valid: (op) => validFindingsRequest(op, seed),
      finalize: (fuzzCase, request) => signCallbacks(seed, fuzzCase, request),
      envelopeProblem: findingsEnvelopeProblem,
      digest,
      afterSuccess: (fuzzCase, response) => replaceConsumed(seed, fuzzCase, response),
    });
    const failedIds = result.failures
      .filter((f) => f.kind === 'server-error')
      .map((f) => f.requestId);
    const logs = await new ServerErrorLog(logDir).collect(failedIds);
    serverLog = (id) => logs.get(id);
    console.log(formatFuzzResult(result, SPEC, serverLog));
    appendFuzzReport(result, SPEC, serverLog);
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await t?.close();
    rmSync(logDir, { recursive: true, force: true });
  });

  it('covers every route of the document', () => {
    expect(unsentRoutes(result)).toEqual([]);
  });

  it('never answers 5xx, always answers errors in the envelope, stores nothing when refusing', () => {
    expect(failureSummary(result, serverLog)).toEqual([]);
  });
});

describe('Fuzz - rate limits still answer 429 in the envelope under hostile input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_AUTH: '2',
      RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:`,
    });
  });
  afterAll(() => t.close());

  it('logins with NUL and control characters are limited like any other login', async () => {
    const body = Buffer.from(JSON.stringify({ login: 'a\u0000\u0001@x', password: '\u0000' }));
    const { statuses, last } = await sendRepeatedly(
      t.url,
      {
        method: 'POST',
        path: '/api/v1/auth/local/login',
        headers: { 'content-type': 'application/json' },
        body,
      },
      3,
    );
    expect(statuses[2]).toBe(429);
    expect(findingsEnvelopeProblem(429, last)).toBeUndefined();
  });
});
