import { fixture } from '@platform/report-parsing/testing';
import { startServiceProcess, waitFor } from '@platform/testing';
import { Tracing } from '@platform/tracing';
import { OtlpReceiver, type ReceivedSpan } from '@platform/tracing/testing';
import request from 'supertest';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { bearer } from '../support/catalog';
import { freshProduct } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let receiver: OtlpReceiver;
let stack: IngestionStack;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  stack = await startIngestion({
    worker: true,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
  });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.stop();
});

/** Sends what both processes still buffer, then waits for `find` to see it at the receiver. */
async function exported<T>(find: () => T | undefined, what: string): Promise<T> {
  await stack.t.app.get(Tracing).flush();
  await stack.worker?.get(Tracing).flush();
  return waitFor(
    () => {
      const found = find();
      if (found === undefined) throw new Error(`not exported yet: ${what}`);
      return found;
    },
    { timeoutMs: 10_000, what },
  );
}

function serverSpan(route: string, method: string, traceId?: string): ReceivedSpan | undefined {
  return receiver.spans.find(
    (s) =>
      s.attributes['http.route'] === route &&
      s.attributes['http.request.method'] === method &&
      (traceId === undefined || s.traceId === traceId),
  );
}

describe('Traces - OTLP/HTTP export of requests and jobs', () => {
  it('exports the upload request and its ingestion job as one trace', async () => {
    const { t, admin } = stack;
    const product = await freshProduct(t, admin);
    const reportId = await uploadReport(
      t,
      bearer(admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    expect((await waitForReport(t, bearer(admin), reportId)).status).toBe('completed');
    const job = await exported(
      () =>
        receiver.spans.find(
          (s) =>
            s.name === 'report-ingestion process' &&
            s.attributes['messaging.message.id'] === reportId,
        ),
      'the ingestion job span',
    );
    const upload = await exported(
      () => serverSpan('/api/v1/products/:product_id/reports', 'POST', job.traceId),
      'the upload span in the job trace',
    );
    expect(upload).toMatchObject({
      name: 'POST /api/v1/products/:product_id/reports',
      kind: 2, // SERVER
      resource: { 'service.name': 'findings-service', component: 'backend' },
    });
    expect(upload.attributes['http.response.status_code']).toBe(202);
    expect(job).toMatchObject({
      kind: 5, // CONSUMER
      parentSpanId: upload.spanId,
      resource: { 'service.name': 'findings-service', component: 'worker' },
    });
    expect(job.attributes['request.id']).toBe(upload.attributes['request.id']);
  });

  it('continues an incoming traceparent', async () => {
    await request(stack.t.url)
      .get('/health')
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .set('x-request-id', 'trace-test-w3c')
      .expect(200)
      .expect('x-request-id', 'trace-test-w3c');
    const span = await exported(
      () => serverSpan('/health', 'GET', TRACE_ID),
      'the /health span in the given trace',
    );
    expect(span.parentSpanId).toBe(PARENT_ID);
    expect(span.attributes['request.id']).toBe('trace-test-w3c');
  });

  it('continues B3 headers (single and multi)', async () => {
    const single = 'a'.repeat(32);
    const multi = 'b'.repeat(32);
    await request(stack.t.url).get('/health').set('b3', `${single}-${PARENT_ID}-1`).expect(200);
    await request(stack.t.url)
      .get('/health')
      .set('X-B3-TraceId', multi)
      .set('X-B3-SpanId', PARENT_ID)
      .set('X-B3-Sampled', '1')
      .expect(200);
    for (const traceId of [single, multi]) {
      const span = await exported(() => serverSpan('/health', 'GET', traceId), `trace ${traceId}`);
      expect(span.parentSpanId).toBe(PARENT_ID);
    }
  });

  it('names an unmatched route by its method only, its path without the query', async () => {
    const traceId = 'c'.repeat(32);
    await request(stack.t.url)
      .get('/api/v1/no-such-route?token=secret')
      .set('traceparent', `00-${traceId}-${PARENT_ID}-01`)
      .expect(404);
    const span = await exported(
      () => receiver.spans.find((s) => s.traceId === traceId),
      'the 404 span',
    );
    expect(span.name).toBe('GET');
    expect(span.attributes['url.path']).toBe('/api/v1/no-such-route');
    expect(span.attributes['http.response.status_code']).toBe(404);
  });

  it('refuses to start with an endpoint that names no scheme', () => {
    expect(() =>
      loadFindingsConfig({
        DATABASE_URL: stack.t.config.databaseUrl,
        REDIS_URL: stack.t.config.redisUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318',
      }),
    ).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must start with http:// (no TLS) or https:// (TLS), got "otel-collector:4318"',
    );
  });

  it.each([
    ['API', 'apps/findings-service/src/main.ts'],
    ['worker', 'apps/findings-service/src/worker.ts'],
  ])('the %s process does not start with such an endpoint', async (_name, entry) => {
    const started = startServiceProcess({
      entry,
      env: {
        DATABASE_URL: stack.t.config.databaseUrl,
        REDIS_URL: stack.t.config.redisUrl,
        PORT: '0',
        METRICS_PORT: '0',
        LOG_FILE_SINK_ENABLED: 'false',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318',
      },
    });
    try {
      expect((await started.ended).code).toBe(1);
      expect(started.output()).toContain(
        'OTEL_EXPORTER_OTLP_ENDPOINT must start with http:// (no TLS) or https:// (TLS), got "otel-collector:4318"',
      );
    } finally {
      await started.kill();
    }
  });

  it('received only JSON trace exports', () => {
    expect(receiver.refused).toEqual([]);
  });
});
