import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { waitFor } from '@platform/testing';
import { Tracing } from '@platform/tracing';
import { OtlpReceiver, type ReceivedSpan } from '@platform/tracing/testing';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { WorkerModule } from '../../src/worker/worker.module';
import { enrollDevice, startEnrollApp } from '../fixtures/enroll';
import { LogCapture } from '../support/log-capture';
import { bearer, loginAdmin } from '../support/sessions';
import { TEST_CA_KEY_ENC_KEY, TEST_JWT_SECRET, type TestApp } from '../support/test-app';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('Traces - the certificate service exports requests, approvals, issuance and worker tasks', () => {
  let receiver: OtlpReceiver;
  let t: TestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    t = await startEnrollApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await receiver?.stop();
  });

  /** Flushes the processes' buffered spans, then waits for `find` to see one at the receiver. */
  async function exported<T>(find: () => T | undefined, what: string): Promise<T> {
    await t.app.get(Tracing).flush();
    await worker?.get(Tracing).flush();
    return waitFor(
      () => {
        const found = find();
        if (found === undefined) throw new Error(`not exported yet: ${what}`);
        return found;
      },
      { timeoutMs: 10_000, what },
    );
  }

  const named = (name: string, traceId?: string) => (): ReceivedSpan | undefined =>
    receiver.spans.find((s) => s.name === name && (traceId === undefined || s.traceId === traceId));

  it('an approval: the server span continues traceparent; approval and issuance spans are its children', async () => {
    const admin = await loginAdmin(t);
    const device = await enrollDevice(t);
    t.logs.clear();
    const res = await t.http
      .post('/api/v1/requests/approve')
      .set(...bearer(admin.accessToken))
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .set('x-request-id', 'trace-test-approve')
      .send({ request_ids: [device.requestId] })
      .expect(200);
    expect(res.body.results[0].status).toBe('issued');

    const server = await exported(
      named('POST /api/v1/requests/approve', TRACE_ID),
      'the approve request span',
    );
    expect(server).toMatchObject({
      kind: 2, // SERVER
      parentSpanId: PARENT_ID,
      resource: { 'service.name': 'certificate-service', component: 'backend' },
    });
    expect(server.attributes).toMatchObject({
      'http.route': '/api/v1/requests/approve',
      'http.response.status_code': 200,
      'request.id': 'trace-test-approve',
    });
    const approval = await exported(named('approval approve', TRACE_ID), 'the approval span');
    expect(approval).toMatchObject({ parentSpanId: server.spanId });
    expect(approval.attributes).toMatchObject({
      'approval.requests': 1,
      'approval.actor_kind': 'user',
    });
    const issuance = await exported(named('issuance issue', TRACE_ID), 'the issuance span');
    expect(issuance).toMatchObject({ parentSpanId: approval.spanId });
    expect(issuance.attributes).toMatchObject({ 'issuance.requests': 1 });

    // lines written while the request was handled carry its trace
    const handled = t.logs.lines().filter((l) => l.request_id === 'trace-test-approve');
    expect(handled.length).toBeGreaterThan(0);
    expect(handled.some((l) => l.trace_id === TRACE_ID)).toBe(true);
  });

  it('an unmatched route: the method alone, the path without its query', async () => {
    const traceId = 'c'.repeat(32);
    await t.http
      .get('/api/v1/no-such-route?token=secret')
      .set('traceparent', `00-${traceId}-${PARENT_ID}-01`)
      .expect(404);
    const span = await exported(
      () => receiver.spans.find((s) => s.traceId === traceId),
      'the 404 span',
    );
    expect(span.name).toBe('GET');
    expect(span.attributes['url.path']).toBe('/api/v1/no-such-route');
  });

  it("the worker's periodic tasks: a span per run, exported as the worker", async () => {
    const config = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: t.db.url,
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot(
        {
          config,
          logger: createCertsvcLogger(config, new LogCapture()),
          metrics: new CertsvcMetrics({ processMetrics: false }),
        },
        { crlRefreshEveryMs: 100, k8sCredentialsPurgeEveryMs: 100 },
      ),
      { logger: false },
    );
    for (const [name, task] of [
      ['crl-refresh', 'CRL refresh'],
      ['k8s-credentials-purge', 'Kubernetes credential rows purge'],
    ]) {
      const span = await exported(named(name), `a ${name} span`);
      expect(span).toMatchObject({
        resource: { 'service.name': 'certificate-service', component: 'worker' },
      });
      expect(span.parentSpanId).toBeFalsy();
      expect(span.attributes).toMatchObject({ 'task.name': task, 'task.every_ms': 100 });
    }
  });

  it('refuses to start with an endpoint that names no scheme', () => {
    expect(() =>
      loadCertsvcConfig({
        CERTSVC_DATABASE_URL: t.db.url,
        CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
        CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318',
      }),
    ).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must start with http:// (no TLS) or https:// (TLS), got "otel-collector:4318"',
    );
  });

  it('received only JSON trace exports', () => {
    expect(receiver.refused).toEqual([]);
  });
});
