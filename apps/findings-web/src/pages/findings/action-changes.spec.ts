import { fieldChanges, plainValue, valueKind } from './action-changes';

describe('fieldChanges', () => {
  it('lists only the fields that changed, those of `to` first', () => {
    expect(
      fieldChanges(
        {
          status: 'waiting',
          sla_due_at: '2026-12-12T04:06:20.489Z',
          waiting_until: '2026-12-05T12:00:00.000Z',
          waiting_reason: 'vendor patch expected',
        },
        { status: 'in_progress', sla_due_at: '2026-12-12T04:06:21.393Z' },
      ),
    ).toEqual([
      { field: 'status', before: 'waiting', after: 'in_progress' },
      {
        field: 'sla_due_at',
        before: '2026-12-12T04:06:20.489Z',
        after: '2026-12-12T04:06:21.393Z',
      },
      { field: 'waiting_until', before: '2026-12-05T12:00:00.000Z', after: undefined },
      { field: 'waiting_reason', before: 'vendor patch expected', after: undefined },
    ]);
  });

  it('treats a missing side as empty and compares lists by value', () => {
    expect(fieldChanges(null, { status: 'new' })).toEqual([
      { field: 'status', before: undefined, after: 'new' },
    ]);
    expect(fieldChanges({ tags: ['a', 'b'] }, { tags: ['a', 'b'] })).toEqual([]);
    expect(fieldChanges({ assignee_id: null }, {})).toEqual([]);
    expect(fieldChanges({ tags: ['a'] }, { tags: ['a', 'b'] })).toEqual([
      { field: 'tags', before: ['a'], after: ['a', 'b'] },
    ]);
  });
});

describe('valueKind and plainValue', () => {
  it('recognizes empties, times, statuses and lists', () => {
    expect(valueKind('waiting_until', null)).toBe('empty');
    expect(valueKind('tags', [])).toBe('empty');
    expect(valueKind('comment', '')).toBe('empty');
    expect(valueKind('sla_due_at', '2026-12-12T04:06:20.489Z')).toBe('time');
    expect(valueKind('risk_accepted_until', '2026-12-12T04:06:20+03:00')).toBe('time');
    expect(valueKind('status', 'in_progress')).toBe('status');
    expect(valueKind('tags', ['pci'])).toBe('list');
    expect(valueKind('waiting_reason', 'due 2026-12-12')).toBe('text');
    expect(valueKind('score', 9.8)).toBe('text');
  });

  it('writes lists and objects as text', () => {
    expect(plainValue(['pci', 'gdpr'])).toBe('pci, gdpr');
    expect(plainValue({ a: 1 })).toBe('{"a":1}');
    expect(plainValue(9.8)).toBe('9.8');
  });
});

describe('people in the log', () => {
  const alice = { id: 'u1', email: 'alice@example.test', display_name: 'Alice Archer' };
  it('an assignee is the person, never the UUID', () => {
    expect(
      fieldChanges({ assignee_id: null, assignee: null }, { assignee_id: 'u1', assignee: alice }),
    ).toEqual([{ field: 'assignee', before: null, after: 'Alice Archer (alice@example.test)' }]);
  });

  it('a removed user is named as such; the same person on both sides is no change', () => {
    expect(fieldChanges({ assignee_id: 'u9', assignee: null }, { assignee_id: null })).toEqual([
      { field: 'assignee', before: 'deleted user', after: null },
    ]);
    expect(
      fieldChanges({ assignee_id: 'u1', assignee: alice }, { assignee_id: 'u1', assignee: alice }),
    ).toEqual([]);
  });
});
