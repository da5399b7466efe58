import { ticketLabel } from './ticket-labels';

describe('ticket labels', () => {
  const a = '0b7f4a9e-1111-4c1a-9d1e-000000000001';
  const b = '0b7f4a9e-1111-4c1a-9d1e-000000000002';

  it('names one finding by its id', () => {
    expect(ticketLabel([a])).toBe(`findsvc-${a}`);
    expect(ticketLabel([a.toUpperCase()])).toBe(`findsvc-${a}`);
  });

  it('names a group by the hash of its sorted ids, whatever their order', () => {
    const label = ticketLabel([b, a]);
    expect(label).toMatch(/^findsvc-g-[0-9a-f]{16}$/);
    expect(ticketLabel([a, b])).toBe(label);
    expect(ticketLabel([a, b, b])).toBe(label);
    expect(ticketLabel([a, '0b7f4a9e-1111-4c1a-9d1e-000000000003'])).not.toBe(label);
  });
});
