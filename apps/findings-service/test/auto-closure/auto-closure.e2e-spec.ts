import request from 'supertest';
import {
  AUTO_CLOSURE_ENV,
  autoVerifyProduct,
  checkFinished,
  createCallbackKey,
  findingIdByRule,
  query,
  sarifOf,
  scan,
  ScannerStandIn,
  sendCallback,
  statusByRule,
  type CallbackKey,
  type ResultSpec,
} from '../support/auto-closure';
import { bearer } from '../support/catalog';
import { seedReport, type Product } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';

/**
 * The automatic closure end to end on the real stack (spec "States and transitions": the three
 * switches, attempts, consecutive checks, a second mechanism, the hourly cap): reports are
 * uploaded through HTTP, ingested and checked by the worker, and a scanner stand-in on loopback
 * takes the re-verification requests and answers through the signed callback route.
 */
let s: IngestionStack;
let key: CallbackKey;
let standIn: ScannerStandIn;

const A: ResultSpec = { rule: 'rule-a', file: 'src/a.ts', line: 1 };
const B: ResultSpec = { rule: 'rule-b', file: 'src/a.ts', line: 9 };
const C: ResultSpec = { rule: 'rule-c', file: 'src/c.ts', line: 3 };

beforeAll(async () => {
  s = await startIngestion({
    worker: true,
    env: { ...AUTO_CLOSURE_ENV, AUTO_CLOSE_MAX_PER_HOUR: '5' },
  });
  key = await createCallbackKey(s.t, s.admin);
  standIn = new ScannerStandIn(s.t, key);
  await standIn.start();
});

afterAll(async () => {
  await standIn?.close();
  await s?.close();
});

async function product(withEndpoint = true): Promise<Product> {
  const p = await autoVerifyProduct(s.t, s.admin);
  if (withEndpoint) await standIn.register(s.admin, p.project_id);
  return p;
}

const scanOf = (p: Product, results: ResultSpec[], options = {}) =>
  scan(s.t, s.admin, p, sarifOf(results, options));

async function autoClosureOf(id: string) {
  const res = await bearer(s.admin)
    .apply(request(s.t.url).get(`/api/v1/findings/${id}/auto-closure`))
    .expect(200);
  return (res.body as { data: Record<string, unknown> }).data;
}

describe('Automatic closure - repeated scans of a product', () => {
  it('closes nothing when the identical report is imported again and again', async () => {
    const p = await product();
    for (let i = 0; i < 5; i++) await scanOf(p, [A, B, C]);
    await standIn.settled();
    expect(await statusByRule(s.t, p)).toEqual({
      'rule-a': 'new',
      'rule-b': 'new',
      'rule-c': 'new',
    });
    const [closures] = await query<{ n: number }>(
      s.t,
      `SELECT count(*)::int AS n FROM auto_closures WHERE project_id = $1`,
      [p.project_id],
    );
    expect(closures.n).toBe(0);
    expect(standIn.received.filter((r) => r.location.path === 'src/a.ts')).toEqual([]);
  });

  it('closes a missing finding only after three consecutive absent checks and the scanner’s confirmation', async () => {
    const p = await product();
    await scanOf(p, [A, B, C]);
    const b = await findingIdByRule(s.t, p, 'rule-b');

    const first = await scanOf(p, [A, C]);
    expect((await autoClosureOf(b)).state).toBe('counting');
    await scanOf(p, [A, C]);
    expect((await autoClosureOf(b)).consecutive_absent).toBe(2);
    expect(standIn.received.some((r) => r.finding_id === b)).toBe(false);
    expect((await statusByRule(s.t, p))['rule-b']).toBe('new');

    const third = await scanOf(p, [A, C]);
    await standIn.settled();
    // Asked after the third check; the scanner said absent through the signed callback.
    expect(standIn.received.filter((r) => r.finding_id === b)).toHaveLength(1);
    expect(await statusByRule(s.t, p)).toEqual({
      'rule-a': 'new',
      'rule-b': 'fixed',
      'rule-c': 'new',
    });
    const view = await autoClosureOf(b);
    expect(view.state).toBe('closed');
    const closure = view.closure as {
      evidence: {
        reports: string[];
        checks: number;
        confirmation: { result: string; key_id: string };
      };
    };
    expect(closure.evidence.checks).toBe(3);
    expect(closure.evidence.reports).toHaveLength(3);
    expect(closure.evidence.reports[0]).toBe(first.id);
    expect(closure.evidence.reports[2]).toBe(third.id);
    expect(closure.evidence.confirmation).toMatchObject({ result: 'absent', key_id: key.key_id });
    const log = await bearer(s.admin)
      .apply(request(s.t.url).get(`/api/v1/findings/${b}/actions`))
      .expect(200);
    const entry = (log.body as { data: Record<string, unknown>[] }).data.find(
      (e) => e.action === 'status_changed',
    );
    expect(entry).toMatchObject({
      actor: { type: 'system', label: 'auto-closure' },
      to: { status: 'fixed', evidence: { checks: 3 } },
    });

    // Seen again (renewed), then fixed by a person: that fix is not an automatic closure.
    await scanOf(p, [A, B, C]);
    expect((await statusByRule(s.t, p))['rule-b']).toBe('renewed');
    await bearer(s.admin)
      .apply(request(s.t.url).patch(`/api/v1/findings/${b}`).send({ status: 'fixed' }))
      .expect(200);
    expect(await autoClosureOf(b)).toMatchObject({ state: 'not_applicable', closure: null });
  });

  it('restarts the count when the finding is seen again, and closes nothing without the scanner’s answer', async () => {
    const p = await product(false);
    await scanOf(p, [A, B]);
    const b = await findingIdByRule(s.t, p, 'rule-b');
    await scanOf(p, [A]);
    await scanOf(p, [A]);
    await scanOf(p, [A, B]); // detected again: the counter resets
    expect((await autoClosureOf(b)).state).toBe('not_tracked');
    for (let i = 0; i < 4; i++) await scanOf(p, [A]);
    const view = await autoClosureOf(b);
    expect(view).toMatchObject({ state: 'awaiting_confirmation', consecutive_absent: 4 });
    expect((await statusByRule(s.t, p))['rule-b']).toBe('new');
    // The confirmation arrives later, on the scanner's own initiative: then it closes.
    const answer = await sendCallback(s.t, key, [{ finding_id: b, result: 'absent' }]);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ recorded: 1, closed: 1 });
    expect((await statusByRule(s.t, p))['rule-b']).toBe('fixed');
  });

  it('never closes outside what a partial scan covered', async () => {
    const p = await product();
    await scanOf(p, [A, B, C]);
    const c = await findingIdByRule(s.t, p, 'rule-c');
    // Three scans that only looked at src/a.ts (no result and no artifact in src/c.ts).
    for (let i = 0; i < 4; i++) await scanOf(p, [A, B]);
    await standIn.settled();
    expect((await statusByRule(s.t, p))['rule-c']).toBe('new');
    expect((await autoClosureOf(c)).state).toBe('not_tracked');
    // A scan that lists src/c.ts as scanned (an artifact without results) covers it.
    for (let i = 0; i < 3; i++) await scanOf(p, [A, B], { artifacts: ['src/a.ts', 'src/c.ts'] });
    await standIn.settled();
    expect((await statusByRule(s.t, p))['rule-c']).toBe('fixed');
  });

  it('counts nothing from a scan that could not read all its results or did not finish', async () => {
    const p = await product();
    await scanOf(p, [A, B, C]);
    const c = await findingIdByRule(s.t, p, 'rule-c');
    const scanned = { artifacts: ['src/a.ts', 'src/c.ts'] };
    await scanOf(p, [A, B], scanned);
    await scanOf(p, [A, B], scanned);
    expect((await autoClosureOf(c)).consecutive_absent).toBe(2);
    // A result the reader must skip (its locations are not an array) could have been C.
    const skipped = await scanOf(p, [A, B], {
      ...scanned,
      rawResults: [{ ruleId: 'x', message: { text: 'x' }, locations: 'nowhere' }],
    });
    expect(await checkFinished(s.t, skipped.id)).toMatchObject({ absent: 0, undetermined: 1 });
    expect((await autoClosureOf(c)).consecutive_absent).toBe(0);
    await scanOf(p, [A, B], scanned);
    await scanOf(p, [A, B], scanned);
    // The tool says it did not finish: nothing it did not report is absent.
    const unfinished = await scanOf(p, [A, B], { ...scanned, executionSuccessful: false });
    expect(await checkFinished(s.t, unfinished.id)).toMatchObject({ absent: 0, undetermined: 1 });
    expect((await autoClosureOf(c)).consecutive_absent).toBe(0);
    await standIn.settled();
    expect((await statusByRule(s.t, p))['rule-c']).toBe('new');
    expect(standIn.received.some((r) => r.finding_id === c)).toBe(false);
  });

  it('keeps a finding open when the scanner answers undetermined or present', async () => {
    const p = await product();
    await scanOf(p, [A, B, C]);
    const c = await findingIdByRule(s.t, p, 'rule-c');
    const b = await findingIdByRule(s.t, p, 'rule-b');
    standIn.answer = (id) => (id === c ? 'undetermined' : id === b ? 'present' : 'absent');
    try {
      for (let i = 0; i < 3; i++) await scanOf(p, [A], { artifacts: ['src/a.ts', 'src/c.ts'] });
      await standIn.settled();
      expect(await statusByRule(s.t, p)).toEqual({
        'rule-a': 'new',
        'rule-b': 'new',
        'rule-c': 'new',
      });
      expect(await autoClosureOf(c)).toMatchObject({
        state: 'awaiting_confirmation',
        confirmation: { result: 'undetermined' },
      });
      // `present` from the scanner is a detection: the count starts again.
      expect((await autoClosureOf(b)).state).toBe('not_tracked');
    } finally {
      standIn.answer = () => 'absent';
    }
  });

  it('holds to the hourly cap per project under a mass disappearance', async () => {
    const p = await product();
    const many = Array.from({ length: 12 }, (_, i) => ({
      rule: `gone-${i}`,
      file: 'src/a.ts',
      line: 100 + i,
    }));
    await scanOf(p, [A, ...many]);
    for (let i = 0; i < 3; i++) await scanOf(p, [A]);
    await standIn.settled();
    const statuses = Object.values(await statusByRule(s.t, p));
    expect(statuses.filter((x) => x === 'fixed')).toHaveLength(5);
    const held = await findingIdByRule(
      s.t,
      p,
      (
        await query<{ rule_id: string }>(
          s.t,
          `SELECT rule_id FROM findings WHERE product_id = $1 AND status = 'new' AND rule_id <> 'rule-a' LIMIT 1`,
          [p.id],
        )
      )[0].rule_id,
    );
    expect((await autoClosureOf(held)).state).toBe('awaiting_cap');
  });

  it('does not run without the project’s auto-verify or without verify_fixes on the upload', async () => {
    const off = await autoVerifyProduct(s.t, s.admin, false);
    await standIn.register(s.admin, off.project_id);
    await scan(s.t, s.admin, off, sarifOf([A, B]));
    for (let i = 0; i < 3; i++) {
      const r = await scan(s.t, s.admin, off, sarifOf([A]));
      expect(await checkFinished(s.t, r.id)).toMatchObject({
        state: 'skipped',
        reason: 'project_off',
      });
    }
    const p = await product();
    await scanOf(p, [A, B]);
    for (let i = 0; i < 3; i++) await scan(s.t, s.admin, p, sarifOf([A]), { verifyFixes: false });
    await standIn.settled();
    expect((await statusByRule(s.t, off))['rule-b']).toBe('new');
    expect((await statusByRule(s.t, p))['rule-b']).toBe('new');
    const [checks] = await query<{ n: number }>(
      s.t,
      `SELECT count(*)::int AS n FROM auto_closure_checks WHERE product_id = $1`,
      [p.id],
    );
    expect(checks.n).toBe(1);
  });

  it('calls a finding undetermined while another report of the product is still being ingested', async () => {
    const p = await product();
    await scanOf(p, [A, B]);
    const b = await findingIdByRule(s.t, p, 'rule-b');
    await scanOf(p, [A]);
    // A report of the product that stays pending through the whole check of the next one
    // (it may yet see the finding).
    const pending = await seedReport(s.t, p);
    const next = await scanOf(p, [A]);
    expect(await checkFinished(s.t, next.id)).toMatchObject({ absent: 0, undetermined: 1 });
    expect((await autoClosureOf(b)).consecutive_absent).toBe(0);
    await query(s.t, `DELETE FROM reports WHERE id = $1`, [pending.id]);
    for (let i = 0; i < 2; i++) await scanOf(p, [A]);
    await standIn.settled();
    expect((await statusByRule(s.t, p))['rule-b']).toBe('new');
    expect((await autoClosureOf(b)).consecutive_absent).toBe(2);
  });
});

describe('Automatic closure - the global switch', () => {
  it('closes nothing with FEATURE_AUTO_VERIFY_FIXES off, and records why', async () => {
    const off = await startIngestion({
      worker: true,
      env: { ...AUTO_CLOSURE_ENV, FEATURE_AUTO_VERIFY_FIXES: 'false' },
    });
    try {
      const p = await autoVerifyProduct(off.t, off.admin);
      await scan(off.t, off.admin, p, sarifOf([A, B]));
      for (let i = 0; i < 3; i++) {
        const r = await scan(off.t, off.admin, p, sarifOf([A]));
        expect(await checkFinished(off.t, r.id)).toMatchObject({
          state: 'skipped',
          reason: 'feature_off',
        });
      }
      const b = await findingIdByRule(off.t, p, 'rule-b');
      const offKey = await createCallbackKey(off.t, off.admin);
      expect(
        (await sendCallback(off.t, offKey, [{ finding_id: b, result: 'absent' }])).status,
      ).toBe(200);
      expect((await statusByRule(off.t, p))['rule-b']).toBe('new');
      const view = await bearer(off.admin)
        .apply(request(off.t.url).get(`/api/v1/findings/${b}/auto-closure`))
        .expect(200);
      expect(view.body.data).toMatchObject({
        state: 'disabled',
        switches: { feature: false, project: true },
        last_product_check: { state: 'skipped', reason: 'feature_off' },
      });
    } finally {
      await off.close();
    }
  });
});
