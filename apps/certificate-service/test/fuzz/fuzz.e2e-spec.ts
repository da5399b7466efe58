import {
  appendFuzzReport,
  DatabaseDigest,
  failureSummary,
  formatFuzzResult,
  fuzzSettings,
  openApiOperations,
  runFuzz,
  sendRepeatedly,
  unsentRoutes,
  type FuzzOperation,
  type FuzzResult,
  type ServerLogLookup,
} from '@platform/testing';
import { DataSource } from 'typeorm';
import { buildOpenApiDocument } from '../../src/api/openapi/openapi-document';
import { startTestApp, type TestApp } from '../support/test-app';
import { CertificateFuzzSeed, FUZZ_APP_ATTEST } from './fuzz-seed';
import {
  certificateEnvelopeProblem,
  replaceConsumed,
  validCertificateRequest,
} from './fuzz-target';

const SPEC = 'apps/certificate-service/test/fuzz';
const settings = fuzzSettings(process.env, { modestRequests: 1200, fullRequests: 6000 });
const NO_LIMIT = '100000000';
// A full run sends thousands of requests one by one: minutes, not seconds.
const RUN_TIMEOUT_MS = settings.size === 'full' ? 3_600_000 : 600_000;

async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  const address = t.app.getHttpServer().address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The `panic recovered` line of each request, by request id. */
function serverLogs(t: TestApp): ServerLogLookup {
  const byId = new Map<string, string>();
  for (const line of t.logs.lines()) {
    if (line.level !== 'error' || typeof line.request_id !== 'string') continue;
    const stack = typeof line.stack === 'string' ? line.stack : String(line.error ?? '');
    byId.set(line.request_id, `${line.msg ?? ''}: ${stack}`);
  }
  return (id) => byId.get(id);
}

describe('Fuzz - every route of the certificate OpenAPI document', () => {
  let t: TestApp;
  let result: FuzzResult;
  let serverLog: ServerLogLookup = () => undefined;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        CERTSVC_LOG_LEVEL: 'error',
        CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE: NO_LIMIT,
        CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: NO_LIMIT,
        CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: NO_LIMIT,
        CERTSVC_ACCESS_TOKEN_TTL_SECONDS: '86400',
        CERTSVC_DEFAULT_MAX_DEVICES: '100000',
        CERTSVC_WEBHOOKS_ENABLED: 'true',
        CERTSVC_WEBHOOK_ENC_KEY: '77'.repeat(32),
        ...FUZZ_APP_ATTEST.env,
      },
    });
    const baseUrl = await listen(t);
    const seed = new CertificateFuzzSeed(t);
    await seed.seed();
    const dataSource = t.app.get(DataSource);
    const digest = await DatabaseDigest.create((sql) => dataSource.query(sql), {
      tables: {
        enroll_nonces:
          'one attempt per nonce: a refused token-recover spends its nonce — a stored one is marked used, a signed one gets its row (docs/certificate-service/enrollment.md)',
      },
      columns: {
        'service_accounts.last_used_at':
          'written after the answer by any request a token authenticated, refused ones included',
        'service_accounts.updated_at': 'touched by that same last-used write',
        'app_attest_challenges.used_at':
          'one attempt per App Attest challenge: a refused receipt spends its challenge',
      },
    });
    console.log(
      `[fuzz] certificate-service seed ${settings.seed} (FUZZ_SEED reproduces, FUZZ_SEED=random explores)`,
    );
    result = await runFuzz({
      service: 'certificate-service',
      baseUrl,
      settings,
      operations: openApiOperations(buildOpenApiDocument(t.app)),
      roles: (op: FuzzOperation) =>
        op.security.length === 0
          ? { primary: 'anonymous', secondary: ['admin'], anonymous: 'anonymous' }
          : {
              primary: op.key === 'POST /api/v1/auth/change-password' ? 'member' : 'admin',
              secondary: ['anonymous', 'service-account'],
              anonymous: 'anonymous',
            },
      credentials: (role): Record<string, string> => {
        const token =
          role === 'admin'
            ? seed.admin.accessToken
            : role === 'member'
              ? seed.member.accessToken
              : role === 'service-account'
                ? seed.serviceAccountToken
                : undefined;
        return token ? { authorization: `Bearer ${token}` } : {};
      },
      valid: (op) => validCertificateRequest(op, seed),
      envelopeProblem: certificateEnvelopeProblem,
      digest,
      afterSuccess: (fuzzCase, response, request) =>
        replaceConsumed(seed, fuzzCase, response, request),
    });
    serverLog = serverLogs(t);
    console.log(formatFuzzResult(result, SPEC, serverLog));
    appendFuzzReport(result, SPEC, serverLog);
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await t?.close();
    FUZZ_APP_ATTEST.dispose();
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
  let baseUrl: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '2' } });
    baseUrl = await listen(t);
  });
  afterAll(() => t.close());

  it('enrollment with NUL and control characters is limited like any other', async () => {
    const body = Buffer.from(
      JSON.stringify({ serial: 'a\u0000\u0001', csr: '\u0000', nonce: 'x' }),
    );
    const { statuses, last } = await sendRepeatedly(
      baseUrl,
      {
        method: 'POST',
        path: '/api/v1/enroll',
        headers: { 'content-type': 'application/json' },
        body,
      },
      3,
    );
    expect(statuses[2]).toBe(429);
    expect(certificateEnvelopeProblem(429, last)).toBeUndefined();
  });
});
