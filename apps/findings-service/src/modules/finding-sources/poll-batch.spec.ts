import { readPollBatch } from './poll-batch';

const batch = (node: Record<string, unknown>, finding: Record<string, unknown> = {}) => ({
  nodes: [{ key: 'n1', hostname: 'web-1', attributes: [], ...node }],
  findings: [{ nodeKey: 'n1', rule: 'open-port', severity: 'high', ...finding }],
});

describe('a finding source poll batch (plugin answer) read with the HTTP text rules', () => {
  it('reads a valid batch', () => {
    const read = readPollBatch(batch({}), 'Inventory');
    expect(read?.nodes).toHaveLength(1);
    expect(read?.findings[0]).toMatchObject({ rule: 'open-port', severity: 'HIGH', host: 'web-1' });
  });

  it.each([
    ['U+0000 in a node key', batch({ key: 'n\u00001' })],
    ['U+0000 in a hostname', batch({ hostname: 'web\u0000' })],
    ['a lone surrogate in an attribute', batch({ attributes: [{ key: 'a', value: 'x\uD800' }] })],
    ['U+0000 in an attribute key', batch({ attributes: [{ key: 'a\u0000', value: 'x' }] })],
    ['U+0000 in a description', batch({}, { description: 'bad\u0000' })],
    ['a lone low surrogate in a component', batch({}, { component: '\uDC00lib' })],
  ])('refuses %s (invalid_answer: nothing is written)', (_what, answer) => {
    expect(readPollBatch(answer, 'Inventory')).toBeUndefined();
  });

  it('cuts a text at its cap without leaving half of a surrogate pair', () => {
    const hostname = `${'h'.repeat(254)}\u{1F600}tail`;
    const read = readPollBatch(batch({ hostname }), 'Inventory');
    expect(read?.nodes[0]?.hostname).toBe('h'.repeat(254));
    const attributes = [{ key: 'k', value: `${'v'.repeat(255)}\u{1F600}` }];
    expect(readPollBatch(batch({ attributes }), 'Inventory')?.nodes[0]?.attributes).toEqual({
      k: 'v'.repeat(255),
    });
  });
});
