import { backoffSeconds, deliveryOutcome, overloadedDelaySeconds } from './delivery-outcome';

describe('delivery outcomes', () => {
  it('maps the runner answers of the outcome table', () => {
    expect(deliveryOutcome({ ok: true, value: { delivered: true, duplicate: true } })).toEqual({
      kind: 'delivered',
      result: { delivered: true, duplicate: true },
    });
    const rejected = deliveryOutcome({
      ok: false,
      error: {
        code: 'plugin_error',
        message: 'no',
        detail: { outcome: 'rejected', retryable: false },
      },
    });
    expect(rejected).toMatchObject({ kind: 'failed', code: 'rejected' });
    const failed = deliveryOutcome({
      ok: false,
      error: {
        code: 'plugin_error',
        message: 'busy',
        detail: { outcome: 'failed', retryable: true, result: { retry_after_seconds: 120 } },
      },
    });
    expect(failed).toEqual({
      kind: 'retry',
      code: 'plugin_error',
      message: 'busy',
      retryAfterSeconds: 120,
    });
    for (const reason of ['secret_unavailable', 'ticketing_provider_native']) {
      expect(
        deliveryOutcome({
          ok: false,
          error: { code: 'refused', message: 'x', detail: { reason } },
        }),
      ).toMatchObject({ kind: 'failed', code: reason });
    }
    expect(
      deliveryOutcome({
        ok: false,
        error: { code: 'refused', message: 'x', detail: { reason: 'plugin_failed' } },
      }),
    ).toMatchObject({ kind: 'retry', code: 'plugin_failed' });
    for (const code of ['invalid_payload', 'unsupported_operation']) {
      expect(deliveryOutcome({ ok: false, error: { code, message: 'x' } })).toMatchObject({
        kind: 'failed',
        code,
      });
    }
    for (const code of ['deadline_exceeded', 'trap', 'not_loaded']) {
      expect(deliveryOutcome({ ok: false, error: { code, message: 'x' } })).toMatchObject({
        kind: 'retry',
        code,
      });
    }
    expect(
      deliveryOutcome({
        ok: false,
        error: { code: 'overloaded', message: 'x', detail: { reason: 'rate_limited' } },
      }),
    ).toMatchObject({ kind: 'overloaded' });
  });

  it('cuts stored messages to 1000 characters', () => {
    const out = deliveryOutcome({ ok: false, error: { code: 'trap', message: 'e'.repeat(5000) } });
    expect(out.kind === 'retry' && [...out.message].length).toBe(1000);
  });

  it('backs off base × 2^(n−1) ± 20 %, at most an hour, Retry-After winning when larger', () => {
    expect(backoffSeconds(1, 15, null, () => 0.5)).toBeCloseTo(15);
    expect(backoffSeconds(3, 15, null, () => 0.5)).toBeCloseTo(60);
    expect(backoffSeconds(3, 15, null, () => 0)).toBeCloseTo(48);
    expect(backoffSeconds(3, 15, null, () => 1)).toBeCloseTo(72);
    expect(backoffSeconds(20, 15, null, () => 0.5)).toBeCloseTo(3600);
    expect(backoffSeconds(1, 15, 300, () => 0.5)).toBe(300);
    expect(backoffSeconds(5, 15, 2, () => 0.5)).toBeCloseTo(240);
    let total = 0;
    for (let n = 1; n <= 11; n++) total += backoffSeconds(n, 15, null, () => 0.5);
    expect(total / 3600).toBeGreaterThan(4);
    expect(total / 3600).toBeLessThan(8);
    const o = overloadedDelaySeconds(() => 0.99);
    expect(o).toBeGreaterThanOrEqual(1);
    expect(o).toBeLessThanOrEqual(3);
  });
});
