/**
 * The cost of one log line (issue 34, not part of `npm test`):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register \
 *     tools/bench/log-line/log-line-bench.ts
 *
 * The shared logger options (`buildLoggerOptions`, JSON at `info`: secret fields redacted at any
 * depth, secret-shaped text scrubbed, the redact paths of request headers) writing to a stream
 * that drops the bytes, for the two lines every request writes:
 *
 * - the certificate service's access line (`installAccessLog`: ten flat fields);
 * - the findings service's `request completed` line as pino-http writes it: a child logger
 *   bound to the serialized request (its headers, once per request), then the line with the
 *   response.
 *
 * Beside each, the in-run reference: `JSON.stringify` of the same fields with a timestamp (what
 * a logger that checks nothing would at least do; an object literal — spreading a function's
 * result into it cost 5× on Node 20 here). Prints µs per line and the ratio. Env:
 * BENCH_LINES (200 000 per series), BENCH_ROUNDS (3).
 */
import pino from 'pino';
import { buildLoggerOptions, serializeRequest } from '../../../libs/logging/src/logger-options';

const LINES = Number(process.env['BENCH_LINES'] ?? 200_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

/** A destination that drops the bytes at once (a stream's callbacks would pile up). */
let written = 0;
const nowhere = {
  write(line: string) {
    written += line.length;
  },
};
const options = buildLoggerOptions({ level: 'info', json: true, base: { component: 'api' } });
const logger = pino(
  { ...options, serializers: { ...options.serializers, req: serializeRequest } },
  nowhere,
);

const requestId = 'b1c2d3e4-0000-4000-8000-000000000001';
const accessLine = {
  status: 201,
  method: 'POST',
  path: '/api/v1/enroll',
  route: '/api/v1/enroll',
  latency_ms: 0.0042,
  client_ip: '10.20.30.40',
  bytes: 1534,
  request_id: requestId,
  actor: 'sa:fleet-enroller',
  actor_role: 'enroller',
};
const request = {
  id: requestId,
  method: 'POST',
  url: '/api/v1/products/6b0e1f0a-0000-4000-8000-000000000001/reports',
  query: {},
  params: {},
  headers: {
    host: '127.0.0.1:3000',
    'content-type': 'application/json',
    'content-length': '812',
    'user-agent': 'scanner-ci/1.0',
    connection: 'keep-alive',
    authorization: 'Bearer sa_0123abcd_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY',
    'x-request-id': requestId,
  },
  remoteAddress: '127.0.0.1',
  remotePort: 53422,
};
const response = {
  statusCode: 202,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'content-length': '1534',
    'x-request-id': requestId,
  },
};

function perLine(write: () => void): number {
  for (let i = 0; i < LINES / 10; i += 1) write();
  const started = process.hrtime.bigint();
  for (let i = 0; i < LINES; i += 1) write();
  return Number(process.hrtime.bigint() - started) / LINES / 1000;
}

const series: [string, () => void, () => void][] = [
  [
    'access line (certificate service)',
    () => logger.info(accessLine, 'request'),
    () =>
      JSON.stringify({
        level: 30,
        time: new Date().toISOString(),
        component: 'api',
        ...accessLine,
        msg: 'request',
      }),
  ],
  [
    'request completed (findings service)',
    () =>
      logger
        .child({ req: request })
        .info({ res: response, responseTime: 3.2 }, 'request completed'),
    () =>
      JSON.stringify({
        level: 30,
        time: new Date().toISOString(),
        component: 'api',
        req: request,
        res: response,
        responseTime: 3.2,
        msg: 'request completed',
      }),
  ],
];
console.log(`${LINES} lines per series, ${ROUNDS} rounds; µs per line`);
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const [name, line, reference] of series) {
    const logged = perLine(line);
    const stringified = perLine(reference);
    console.log(
      `round ${round}  ${name.padEnd(38)} logger ${logged.toFixed(2).padStart(6)}  ` +
        `JSON.stringify ${stringified.toFixed(2).padStart(5)}  ratio ${(stringified / logged).toFixed(3)}`,
    );
  }
}
console.log(`(${(written / 2 ** 20).toFixed(0)} MiB of lines written)`);
