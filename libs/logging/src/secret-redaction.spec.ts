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
});
