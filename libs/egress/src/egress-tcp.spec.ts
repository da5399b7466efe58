import { checkTcpTarget, checkTcpTargetForm } from './egress-tcp';
import { ANY_HOST, type EgressContext } from './egress-guard';
import { DEFAULT_EGRESS_POLICY, type EgressPolicy } from './egress-policy';
import type { EgressResolver } from './egress-resolver';
import { parseCidr, type IpRange } from './ip-address';

const anyHost: EgressContext = { caller: 'test', permittedHosts: ANY_HOST };
const policy = (overrides: Partial<EgressPolicy> = {}): EgressPolicy => ({
  ...DEFAULT_EGRESS_POLICY,
  ...overrides,
});
const answering = (addresses: string[]): EgressResolver => ({
  resolve: () => Promise.resolve(addresses),
});

describe('checkTcpTarget: the guard for a non-HTTP connection', () => {
  it('resolves a name once and gives the checked addresses and the name for TLS', async () => {
    const checked = await checkTcpTarget(
      policy(),
      anyHost,
      { host: 'dc1.example.com', port: 636 },
      { resolver: answering(['203.0.113.9', '2001:db8::9']) },
    );
    // documentation ranges are forbidden: one refused address refuses the answer
    expect(checked).toMatchObject({ ok: false, reason: 'address_not_allowed' });
    const ok = await checkTcpTarget(
      policy(),
      anyHost,
      { host: 'DC1.Example.com.', port: 636 },
      { resolver: answering(['8.8.4.4']) },
    );
    expect(ok).toEqual({
      ok: true,
      host: { kind: 'name', name: 'dc1.example.com' },
      servername: 'dc1.example.com',
      port: 636,
      addresses: ['8.8.4.4'],
    });
  });

  it('refuses local and metadata targets unless local dialling is allowed', async () => {
    for (const host of ['127.0.0.1', '0x7f000001', '[::1]', '10.1.2.3', 'localhost']) {
      const refused = await checkTcpTarget(policy(), anyHost, { host, port: 389 });
      expect(refused.ok).toBe(false);
    }
    const metadata = await checkTcpTarget(policy({ allowLocalDial: true }), anyHost, {
      host: '169.254.169.254',
      port: 389,
    });
    expect(metadata).toMatchObject({ ok: false, reason: 'address_not_allowed' });
    const local = await checkTcpTarget(policy({ allowLocalDial: true }), anyHost, {
      host: '127.0.0.1',
      port: 389,
    });
    expect(local).toMatchObject({ ok: true, servername: undefined, addresses: ['127.0.0.1'] });
  });

  it('applies the allowlist and refuses hosts that cannot be dialled', async () => {
    const allowlist = [parseCidr('10.20.0.0/16') as IpRange];
    const p = policy({ allowLocalDial: true, allowlist });
    expect(await checkTcpTarget(p, anyHost, { host: '10.20.1.1', port: 389 })).toMatchObject({
      ok: true,
    });
    expect(await checkTcpTarget(p, anyHost, { host: '10.21.1.1', port: 389 })).toMatchObject({
      ok: false,
      reason: 'address_not_allowlisted',
    });
    for (const host of ['dc/x', 'a@b', 'dc?x', '', 'dc#1', 'a b']) {
      expect(await checkTcpTarget(p, anyHost, { host, port: 389 })).toMatchObject({
        ok: false,
        reason: 'invalid_url',
      });
    }
    expect(await checkTcpTarget(p, anyHost, { host: '10.20.1.1', port: 0 })).toMatchObject({
      ok: false,
      reason: 'invalid_url',
    });
  });

  it('checkTcpTargetForm: no DNS, literals checked, names left to the call', () => {
    expect(checkTcpTargetForm(policy(), anyHost, { host: 'dc1.example.com', port: 389 })).toEqual({
      ok: true,
    });
    expect(checkTcpTargetForm(policy(), anyHost, { host: '127.0.0.1', port: 389 })).toMatchObject({
      ok: false,
      reason: 'address_not_allowed',
    });
    expect(
      checkTcpTargetForm(policy(), anyHost, { host: 'metadata.google.internal', port: 389 }),
    ).toMatchObject({ ok: false, reason: 'host_forbidden' });
  });
});
