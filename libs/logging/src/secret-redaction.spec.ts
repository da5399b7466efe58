import { DatabaseError } from 'pg';
import pino from 'pino';
import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import {
  buildLoggerOptions,
  isSecretField,
  loggableError,
  type LoggedError,
  queryKindOf,
  scrubSecretText,
  SECRET_TEXT_PATTERNS,
  serializeRequest,
} from './index';

interface LoggedLine {
  msg: string;
  err: LoggedError;
  request: { nested: { error: LoggedError } };
}

const HASH = 'scrypt$32768$8$1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
const KEY = 'sa_0123abcd_Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFy';

function captureLogger() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  const logger = pino(buildLoggerOptions({ level: 'debug', json: true }), stream);
  return { logger, text: () => chunks.join('') };
}

/** A check-constraint failure as TypeORM raises it: row values in detail and parameters. */
function failedInsert(): QueryFailedError {
  const driver = new DatabaseError(
    `new row for relation "users" violates check constraint "users_email_check" ${HASH}`,
    0,
    'error',
  );
  Object.assign(driver, {
    severity: 'ERROR',
    code: '23514',
    table: 'users',
    constraint: 'users_email_check',
    detail: `Failing row contains (someone@example.test, ${HASH}).`,
    where: `PL/pgSQL function with ${KEY}`,
  });
  return new QueryFailedError(
    'INSERT INTO "users"("email", "password_hash") VALUES ($1, $2) RETURNING "id"',
    ['someone@example.test', HASH],
    driver,
  );
}

describe('database errors in logs', () => {
  it('keep the statement kind, SQLSTATE and names, never parameters, detail or message', () => {
    const out = captureLogger();
    out.logger.error({ err: failedInsert(), request: { nested: { error: failedInsert() } } }, 'x');
    out.logger.error(failedInsert());
    const text = out.text();
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain('someone@example.test');
    expect(text).not.toContain('Failing row');
    expect(text).not.toContain(KEY);
    const [first, second] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LoggedLine);
    expect(first.err).toMatchObject({
      type: 'QueryFailedError',
      sqlstate: '23514',
      query_kind: 'INSERT',
      table: 'users',
      constraint: 'users_email_check',
      message: 'INSERT failed: SQLSTATE 23514, table users, constraint users_email_check',
    });
    expect(first.err.stack).toMatch(/\n\s+at /);
    expect(first.request.nested.error.sqlstate).toBe('23514');
    expect(second.msg).toBe(first.err.message);
  });

  it('names the statement kind past comments and parentheses', () => {
    expect(queryKindOf('  /* x */ (select 1)')).toBe('SELECT');
    expect(queryKindOf('-- note\nWITH a AS (SELECT 1) UPDATE t SET x = 1')).toBe('WITH');
    expect(queryKindOf('$1')).toBeUndefined();
  });

  it('describes other errors with their message, code and cause', () => {
    const error = new Error('outer', {
      cause: Object.assign(new Error('inner'), { code: 'ENOENT' }),
    });
    expect(loggableError(error)).toMatchObject({
      type: 'Error',
      message: 'outer',
      cause: { message: 'inner', code: 'ENOENT' },
    });
    expect(loggableError('plain text')).toEqual({ type: 'string', message: 'plain text' });
  });
});

describe('secret fields in logs', () => {
  it('are redacted at any depth, in headers, bodies, arrays and errors', () => {
    const out = captureLogger();
    out.logger.warn(
      {
        req: { headers: { authorization: 'Bearer abc', cookie: 'findsvc_refresh=r1' } },
        res: { headers: { 'set-cookie': ['certsvc_refresh_token=r2'] } },
        body: {
          user: { credentials: { password: 'pw-1' }, newPassword: 'pw-2' },
          enrollment_token: 'et-1',
          items: [{ refresh_token: 'rt-1' }, { api_key: 'ak-1' }],
        },
        deep: { a: { b: { c: { d: { 'X-Agent-Secret': 'as-1', keyHash: 'kh-1' } } } } },
        caKeyEncKey: 'enc-1',
        privateKeyPem: 'pem-1',
        token_count: 3,
      },
      'request',
    );
    const text = out.text();
    for (const secret of [
      'abc',
      'r1',
      'r2',
      'pw-1',
      'pw-2',
      'et-1',
      'rt-1',
      'ak-1',
      'as-1',
      'kh-1',
      'enc-1',
      'pem-1',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(text)).toMatchObject({
      token_count: 3,
      body: { enrollment_token: '[redacted]' },
    });
  });

  it('scrubs secret-shaped text from messages and string fields', () => {
    const out = captureLogger();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----';
    out.logger.info(
      { note: `key ${KEY} url postgres://app:db-pw@db:5432/x`, pem },
      `auth Bearer ${jwt} hash ${HASH} token wca_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY`,
    );
    const text = out.text();
    for (const secret of [jwt, HASH, KEY, 'db-pw', 'MIIEvQ', 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('sa_0123abcd_[redacted]');
    expect(text).toContain('postgres://app:[redacted]@db:5432/x');
  });

  it('scrubs the secret query parameters of URLs: callback code and state, tokens', () => {
    const url =
      '/api/v1/auth/sso/corp/callback?code=c0de-VALUE&state=st4te.VALUE&iss=https%3A%2F%2Fidp&x=1';
    expect(scrubSecretText(`GET ${url} failed`)).toBe(
      'GET /api/v1/auth/sso/corp/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp&x=1 failed',
    );
    expect(scrubSecretText('https://h/cb?access_token=abc&session_state=s&code_verifier=v')).toBe(
      'https://h/cb?access_token=[redacted]&session_state=[redacted]&code_verifier=[redacted]',
    );
    // a parameter that only ends like one is left alone; so is text outside a query
    expect(scrubSecretText('/x?zipcode=123&error_code=e state=open')).toBe(
      '/x?zipcode=123&error_code=e state=open',
    );
  });

  it('scrubs the secret segment of a webhook path', () => {
    const id = '0b7f4a9e-1111-4c1a-9d1e-000000000001';
    expect(scrubSecretText(`POST /api/v1/webhooks/ticketing/${id}/s3cr3t_VALUE-x?a=1 404`)).toBe(
      `POST /api/v1/webhooks/ticketing/${id}/[redacted]?a=1 404`,
    );
    expect(scrubSecretText(`/api/v1/webhooks/ticketing/${id}/{secret}`)).toBe(
      `/api/v1/webhooks/ticketing/${id}/[redacted]`,
    );
    expect(scrubSecretText('/api/v1/projects/x/tickets')).toBe('/api/v1/projects/x/tickets');
  });

  it('writes a request without the secrets of its URL and query', () => {
    expect(
      serializeRequest({
        id: 'r1',
        method: 'GET',
        url: '/cb?code=c0de&state=st4te&iss=i',
        query: { code: 'c0de', state: 'st4te', iss: 'i', refresh_token: 't' },
        headers: { host: 'h' },
      }),
    ).toEqual({
      id: 'r1',
      method: 'GET',
      url: '/cb?code=[redacted]&state=[redacted]&iss=i',
      query: { code: '[redacted]', state: '[redacted]', iss: 'i', refresh_token: '[redacted]' },
      headers: { host: 'h' },
    });
  });

  it('survives circular values', () => {
    const out = captureLogger();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    out.logger.info({ loop }, 'circular');
    expect(JSON.parse(out.text())).toMatchObject({ loop: { name: 'loop', self: '[circular]' } });
  });

  it('match by word, case and separator', () => {
    for (const name of [
      'Authorization',
      'set-cookie',
      'x-api-key',
      'bot_token',
      'clientSecret',
      'key_hash',
      'parameters',
    ]) {
      expect(isSecretField(name)).toBe(true);
    }
    for (const name of ['email', 'status', 'keyholder', 'content_hash', 'public_key']) {
      expect(isSecretField(name)).toBe(false);
    }
  });

  it('answers the same for a remembered name, after its memory filled and was cleared, and for a name too long to keep', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(isSecretField('clientSecret')).toBe(true);
      expect(isSecretField('email')).toBe(false);
    }
    // More distinct names than are remembered, then the first ones again.
    const names = Array.from({ length: 3000 }, (_, i) => `field_${i}_token`);
    expect(names.filter((name) => !isSecretField(name))).toEqual([]);
    expect(isSecretField('field_0_token')).toBe(true);
    expect(isSecretField('field_0_count')).toBe(false);
    expect(isSecretField(`${'x'.repeat(80)}_password`)).toBe(true);
  });
});

describe('secret-shaped text: the needles check before the patterns', () => {
  /** Every pattern, in order, with no needles check: what scrubSecretText must equal. */
  const scrubEveryPattern = (text: string) =>
    SECRET_TEXT_PATTERNS.reduce(
      (t, { pattern, replacement }) => t.replace(pattern, replacement),
      text,
    );
  // Pieces of secrets (each pattern's) and of harmless text, in both cases.
  const pieces = [
    'Bearer ',
    'BASIC ',
    'apikey ',
    'abc.DEF-123',
    'eyJhbGciOi',
    '.eyJzdWIiOi',
    '.c2ln',
    'sa_0123abcd_',
    'wca_',
    'QUJDREVGR0hJSktMTU5P',
    'scrypt$',
    'N=32768$c2FsdA',
    '-----BEGIN ',
    'RSA ',
    'PRIVATE KEY-----',
    '\nMIIE\n',
    '-----END ',
    'postgres://',
    'app:',
    'pw@db',
    'HTTPS://',
    '?code=',
    '&state=',
    '&access_token=',
    '=x',
    '/webhooks/',
    'ticketing/',
    '0b7f-4a9e/',
    's3cr3t',
    '/api/v1/findings',
    ' ',
    'application/json',
    'b1c2d3e4-0000-4000-8000-0001',
    '@',
    ':',
    '/',
    '?',
    '&',
    'ok',
  ];

  it('changes nothing: on thousands of texts built from secrets’ pieces, the same as every pattern run', () => {
    let seed = 34; // mulberry32: the same texts every run
    const next = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (t ^ (t >>> 14)) >>> 0;
    };
    let scrubbed = 0;
    const differing: string[] = [];
    for (let n = 0; n < 20_000; n += 1) {
      const parts = Array.from({ length: 1 + (next() % 8) }, () => pieces[next() % pieces.length]!);
      const text = parts.join('');
      const expected = scrubEveryPattern(text);
      if (expected !== text) scrubbed += 1;
      if (scrubSecretText(text) !== expected) differing.push(text);
    }
    expect(differing).toEqual([]);
    // The texts did hold secrets: the comparison is not between unchanged strings only.
    expect(scrubbed).toBeGreaterThan(2_000);
  });

  it('names for each pattern a needle that every one of its matches holds', () => {
    const texts = [
      '/cb?code=c0de&state=s&x_token=t',
      '-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----',
      'hash scrypt$N=32768$c2FsdA$aGFzaA',
      'bearer abc.def basic Zm9v ApiKey k3y',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
      'sa_0123abcd_QUJDREVGR0hJSktMTU5P wca_QUJDREVGR0hJSktMTU5P',
      'REDIS://user:pw@host/0 postgres://app:db-pw@db:5432/x',
      '/api/v1/webhooks/ticketing/0b7f/s3cr3t',
    ];
    for (const { pattern, needles } of SECRET_TEXT_PATTERNS) {
      const matches = texts.flatMap((t) => [
        ...t.matchAll(new RegExp(pattern.source, pattern.flags)),
      ]);
      expect(matches.length).toBeGreaterThan(0);
      for (const [match] of matches) {
        expect(needles.some((n) => match.toLowerCase().includes(n.toLowerCase()))).toBe(true);
      }
    }
  });
});
