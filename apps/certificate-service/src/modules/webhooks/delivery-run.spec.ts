import { runDrain, type DrainSteps } from './delivery-run';
import type { AttemptResult, ClaimedDelivery } from './webhook-deliveries.repository';

/** An in-memory outbox: `rows` due, claims take them in order. */
function outbox(rows: ClaimedDelivery[], callMs: (d: ClaimedDelivery) => number) {
  const pending = [...rows];
  const recorded: AttemptResult[] = [];
  const inFlight = new Map<string, number>();
  let maxPerEndpoint = 0;
  let claims = 0;
  const steps: DrainSteps = {
    claim: async (limit) => {
      claims += 1;
      return pending.splice(0, limit);
    },
    prepare: async () => undefined,
    attempt: async (d) => {
      inFlight.set(d.endpointId, (inFlight.get(d.endpointId) ?? 0) + 1);
      maxPerEndpoint = Math.max(maxPerEndpoint, inFlight.get(d.endpointId) ?? 0);
      await new Promise((resolve) => setTimeout(resolve, callMs(d)));
      inFlight.set(d.endpointId, (inFlight.get(d.endpointId) ?? 1) - 1);
      return { id: d.id, attempts: d.attempts, outcome: 'delivered', code: 200 };
    },
    record: async (results) => {
      recorded.push(...results);
    },
  };
  return { steps, recorded, maxPerEndpoint: () => maxPerEndpoint, claims: () => claims };
}

const rows = (n: number, endpoints: number): ClaimedDelivery[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    endpointId: `e${i % endpoints}`,
    eventType: 'webhook.test',
    body: '{}',
    attempts: 0,
  }));

describe('runDrain - the delivery pipeline', () => {
  const limits = { batchSize: 10, concurrency: 8, perEndpointConcurrency: 2 };

  it('sends every claimed row once, records all, never exceeds the per-endpoint limit', async () => {
    const box = outbox(rows(95, 3), () => 2);
    const sent = await runDrain(box.steps, { ...limits, claimUntil: Date.now() + 60_000 });
    expect(sent).toBe(95);
    expect(new Set(box.recorded.map((r) => r.id)).size).toBe(95);
    expect(box.recorded).toHaveLength(95);
    expect(box.maxPerEndpoint()).toBeLessThanOrEqual(2);
    expect(box.claims()).toBe(10);
  });

  it('a slow endpoint does not hold back the others', async () => {
    const box = outbox(rows(40, 2), (d) => (d.endpointId === 'e0' ? 50 : 1));
    const started = Date.now();
    await runDrain(box.steps, { ...limits, claimUntil: Date.now() + 60_000 });
    // 20 rows of e0, 2 at a time, 50 ms each: about 500 ms; e1's rows finish long before.
    expect(Date.now() - started).toBeLessThan(2_000);
    const order = box.recorded.map((r) => r.id);
    const lastFast = Math.max(...order.map((id, i) => (Number(id.slice(1)) % 2 ? i : -1)));
    expect(lastFast).toBeLessThan(order.length - 1);
  });

  it('stops claiming at claimUntil but sends what it holds', async () => {
    const box = outbox(rows(50, 5), () => 1);
    const sent = await runDrain(box.steps, { ...limits, claimUntil: Date.now() - 1 });
    expect(sent).toBe(0);
    expect(box.claims()).toBe(0);
  });

  it('a failing claim or record is raised at the end, after what was held was sent', async () => {
    const box = outbox(rows(30, 2), () => 1);
    let calls = 0;
    const claim = box.steps.claim;
    box.steps.claim = async (limit) => {
      calls += 1;
      if (calls === 2) throw new Error('database gone');
      return claim(limit);
    };
    await expect(
      runDrain(box.steps, { ...limits, claimUntil: Date.now() + 60_000 }),
    ).rejects.toThrow('database gone');
    expect(box.recorded).toHaveLength(10);
    const failing = outbox(rows(12, 2), () => 1);
    failing.steps.record = async () => {
      throw new Error('record failed');
    };
    await expect(
      runDrain(failing.steps, { ...limits, claimUntil: Date.now() + 60_000 }),
    ).rejects.toThrow('record failed');
  });
});
