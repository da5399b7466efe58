import 'reflect-metadata';
import Fastify, { type FastifyInstance } from 'fastify';
import { Client } from 'pg';
import {
  DatabaseDigest,
  FuzzRandom,
  createTestDatabase,
  ensureTemplateDatabase,
  openApiOperations,
  runFuzz,
  type FuzzResult,
  type TestDatabase,
} from '../src';
import { withAdminClient } from '../src/admin-database';
import { gadgetDataSourceOptions } from './fixtures';

/** A service with three planted faults the fuzzer must find, and nothing else wrong. */
function faultyService(db: Client): FastifyInstance {
  const app = Fastify();
  const envelope = (code: string) => ({ error: code.replace(/_/g, ' '), code });
  // Fastify's own refusals (body limit, JSON syntax) keep their 4xx; anything else is a 500.
  app.setErrorHandler((err: { statusCode?: number }, _req, reply) => {
    const status = err.statusCode ?? 500;
    void reply.status(status).send(envelope(status >= 500 ? 'internal' : 'bad_request'));
  });
  app.setNotFoundHandler((_req, reply) => void reply.status(404).send(envelope('not_found')));
  app.get<{ Params: { id: string } }>('/gadgets/:id', async (req, reply) => {
    const { rows } = await db.query('SELECT id FROM gadget WHERE id = $1', [req.params.id]);
    return rows.length > 0 ? rows[0] : reply.status(404).send(envelope('not_found'));
  });
  app.post<{ Body: { name?: unknown } }>('/gadgets', async (req, reply) => {
    const name = (req.body as { name?: unknown } | null)?.name;
    if (name === null) return reply.status(400).type('text/plain').send('bad'); // not the envelope
    if (typeof name !== 'string') return reply.status(400).send(envelope('invalid_name'));
    await db.query('INSERT INTO gadget (id, serial_number) VALUES (gen_random_uuid(), $1)', [name]);
    if (name.trim() === '') return reply.status(400).send(envelope('blank_name')); // wrote anyway
    return reply.status(201).send({ ok: true });
  });
  return app;
}

const DOCUMENT = {
  openapi: '3.0.0',
  paths: {
    '/gadgets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {},
      },
    },
    '/gadgets': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' } },
              },
            },
          },
        },
        responses: {},
      },
    },
  },
};

describe('runFuzz against a service with planted faults (real PostgreSQL)', () => {
  const options = {
    service: `lib_fuzz_${process.pid}`,
    dataSourceOptions: gadgetDataSourceOptions,
  };
  let database: TestDatabase;
  let client: Client;
  let app: FastifyInstance;
  let result: FuzzResult;

  beforeAll(async () => {
    database = await createTestDatabase(options);
    client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(`INSERT INTO gadget (id) VALUES ('g1')`);
    app = faultyService(client);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    result = await runFuzz({
      service: 'planted',
      baseUrl: url,
      settings: { seed: new FuzzRandom(3).seed, size: 'full', requests: 1 },
      operations: openApiOperations(DOCUMENT),
      roles: () => ({ primary: 'anon', secondary: [], anonymous: 'anon' }),
      credentials: () => ({}),
      valid: () => ({ path: { id: 'g1' }, body: { name: 'ok' } }),
      envelopeProblem: (_status, body) => {
        try {
          const parsed = JSON.parse(body.toString()) as { code?: unknown };
          return typeof parsed.code === 'string' ? undefined : 'no code';
        } catch {
          return 'not JSON';
        }
      },
      digest: await DatabaseDigest.create(async (sql) => (await client.query(sql)).rows),
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await client?.end();
    await database?.drop();
    const template = await ensureTemplateDatabase(options);
    await withAdminClient((admin) => admin.query(`DROP DATABASE "${template}" WITH (FORCE)`));
  });

  const failed = (kind: string) =>
    result.failures.filter((f) => f.kind === kind).map((f) => `${f.route} ${f.variant}`);

  it('finds the 500 that NUL in a path parameter causes in PostgreSQL', () => {
    expect(failed('server-error')).toEqual(
      expect.arrayContaining([
        'GET /gadgets/{id} path id=nul',
        'GET /gadgets/{id} path id=valid-then-nul',
      ]),
    );
    expect(result.failures.find((f) => f.kind === 'server-error')?.requestBody).toBe('');
  });

  it('finds the error answer that is not in the envelope', () => {
    expect(failed('envelope')).toContain('POST /gadgets field name=null');
  });

  it('finds the refused request that stored a row, naming the table', () => {
    expect(failed('stored-change')).toEqual(
      expect.arrayContaining([
        'POST /gadgets field name=empty-string',
        'POST /gadgets field name=spaces',
      ]),
    );
    const stored = result.failures.find((f) => f.kind === 'stored-change');
    expect(stored?.detail).toMatch(/gadget \(rows \d+ -> \d+\)/);
  });

  it('does not blame the valid requests or the refusals that store nothing', () => {
    const blamed = result.failures.map((f) => f.variant);
    expect(blamed).not.toContain('valid');
    expect(blamed).not.toContain('field name=empty-object');
    expect(result.statuses['201']).toBeGreaterThan(0);
    expect(result.routes.every((r) => r.sent > 0 && r.reached > 0)).toBe(true);
  });
});
