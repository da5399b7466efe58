import { admitSlots } from './slot-admission';

const keys = (...k: string[]) => k.map((identityKey) => ({ identityKey }));

describe('admitSlots', () => {
  it('admits new identities while slots remain and refuses the rest', () => {
    const result = admitSlots(keys('sn:a', 'sn:b', 'sn:c'), new Set(), 48, 50);
    expect(result.newlyCounted).toEqual(['sn:a', 'sn:b']);
    expect([...result.refused]).toEqual(['sn:c']);
  });

  it('never blocks identities that already hold a slot, even over the limit', () => {
    const result = admitSlots(keys('sn:a', 'sn:new'), new Set(['sn:a']), 60, 50);
    expect(result.newlyCounted).toEqual([]);
    expect([...result.refused]).toEqual(['sn:new']);
  });

  it('counts an identity once however many of its requests are in the batch', () => {
    const result = admitSlots(keys('pk:1', 'pk:1', 'pk:2'), new Set(), 0, 2);
    expect(result.newlyCounted).toEqual(['pk:1', 'pk:2']);
    expect(result.refused.size).toBe(0);
  });
});
