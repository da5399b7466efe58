import type { EgressOutcome } from '@platform/egress';
import { EgressLab } from './support/egress-lab';

/**
 * DNS answers that change between the check and the connect. The lab's DNS responder
 * answers with TTL 0 and a different address from one query to the next. Loopback dial is
 * allowed but PLUGIN_EGRESS_ALLOWLIST admits only 127.0.0.2 (the stand-in): the victims on
 * 127.0.0.1 and ::1 share its port and certificate, so a guard that asked DNS again for the
 * connect would complete a request there.
 */
describe('egress guard: DNS rebinding', () => {
  let lab: EgressLab;
  const jail = () => lab.guard({ allowLocalDial: true, allowlistText: ['127.0.0.2/32'] });
  const call = (path: string): Promise<EgressOutcome> =>
    jail().request(lab.context(`rebind.test:${lab.port}`), {
      method: 'GET',
      url: `https://rebind.test:${lab.port}${path}`,
    });

  beforeAll(async () => {
    lab = await EgressLab.start();
  });

  afterAll(async () => {
    await lab.close();
  });

  afterEach(() => {
    expect(lab.escapes()).toBe(0);
  });

  it('connects to the address it checked, not to the answer a second query would give', async () => {
    lab.dns.set('rebind.test', (round) => (round === 0 ? ['127.0.0.2'] : ['127.0.0.1', '::1']));
    const before = lab.good.length;
    const outcome = await call('/ok');
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    expect(lab.good.length).toBe(before + 1);
    // One resolution (A + AAAA) for the check; nothing asked again for the connect.
    expect(lab.dns.queriesFor('rebind.test', 'A')).toBe(1);
    expect(lab.dns.queriesFor('rebind.test', 'AAAA')).toBe(1);
  });

  it('checks every call afresh through a rebinding sequence', async () => {
    const answers = [
      ['127.0.0.2'],
      ['127.0.0.1'],
      ['127.0.0.2'],
      ['169.254.169.254'],
      ['::1'],
      ['::ffff:127.0.0.1'],
      ['127.0.0.1', '127.0.0.2'],
      ['10.0.0.1'],
      ['127.0.0.2'],
    ];
    const expected = [
      'ok',
      'address_not_allowlisted',
      'ok',
      'address_not_allowed',
      'address_not_allowlisted',
      'address_not_allowlisted',
      'ok', // the allowlist filters the answer: only 127.0.0.2 is dialled
      'address_not_allowlisted',
      'ok',
    ];
    lab.dns.set('rebind.test', (round) => answers[round] ?? ['127.0.0.1']);
    const before = {
      allowlisted: await lab.denialCount('address_not_allowlisted'),
      allowed: await lab.denialCount('address_not_allowed'),
    };
    const seen: string[] = [];
    for (let i = 0; i < answers.length; i += 1) {
      const outcome = await call('/ok');
      seen.push(outcome.ok ? 'ok' : outcome.reason);
    }
    expect(seen).toEqual(expected);
    expect(await lab.denialCount('address_not_allowlisted')).toBe(before.allowlisted + 4);
    expect(await lab.denialCount('address_not_allowed')).toBe(before.allowed + 1);
  });

  it('resolves and checks the host again on a redirect to itself', async () => {
    lab.dns.set('rebind.test', (round) => (round === 0 ? ['127.0.0.2'] : ['127.0.0.1']));
    const before = await lab.denialCount('redirect_refused');
    const queries = lab.dns.queriesFor('rebind.test', 'A');
    const outcome = await call('/redirect?to=/ok');
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'redirect_refused',
      cause: 'address_not_allowlisted',
    });
    expect(lab.dns.queriesFor('rebind.test', 'A')).toBe(queries + 2);
    expect(await lab.denialCount('redirect_refused')).toBe(before + 1);
  });

  it('refuses a rebinding to the metadata address even where loopback dial is allowed', async () => {
    lab.dns.set('rebind.test', (round) => (round === 0 ? ['127.0.0.2'] : ['169.254.169.254']));
    expect(await call('/ok')).toMatchObject({ ok: true });
    expect(await call('/ok')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
  });
});
