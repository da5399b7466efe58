import { chainEntries, firstBrokenLink, LEDGER_GENESIS_HASH } from './license-ledger';

describe('license ledger chain', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const genesis = { seq: 0n, hash: LEDGER_GENESIS_HASH };

  it('chains rows so that each hash covers the previous one', () => {
    const rows = chainEntries(
      genesis,
      [
        { identityKey: 'sn:A', event: 'count' },
        { identityKey: 'sn:B', event: 'count' },
      ],
      at,
    );
    expect(rows.map((r) => r.seq)).toEqual([1n, 2n]);
    expect(rows[1].prevHash).toBe(rows[0].hash);
    expect(firstBrokenLink(rows)).toBeUndefined();
  });

  it('continues an existing chain from its last row', () => {
    const first = chainEntries(genesis, [{ identityKey: 'sn:A', event: 'count' }], at);
    const next = chainEntries(first[0], [{ identityKey: 'sn:A', event: 'decommission' }], at);
    expect(firstBrokenLink([...first, ...next])).toBeUndefined();
  });

  it('finds an edited, removed or reordered row', () => {
    const rows = chainEntries(
      genesis,
      ['a', 'b', 'c'].map((k) => ({ identityKey: `sn:${k}`, event: 'count' as const })),
      at,
    );
    expect(firstBrokenLink([rows[0], { ...rows[1], identityKey: 'sn:x' }, rows[2]])).toBe(2n);
    expect(firstBrokenLink([rows[0], rows[2]])).toBe(3n);
    expect(firstBrokenLink([rows[1], rows[0]])).toBe(2n);
  });
});
