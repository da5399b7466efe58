import { columnReaders, objectReader } from './column-readers';

describe('column readers over array rows', () => {
  const fields = [{ name: 'id' }, { name: 'title' }, { name: 'tags' }, { name: 'id' }];
  const rows = [
    ['a', 'first', ['x'], 'a2'],
    ['b', null, [], 'b2'],
  ];
  /** What node-pg's default mode builds for the same row: later columns of a name win. */
  const asObject = (values: unknown[]): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    fields.forEach((field, i) => (row[field.name] = values[i]));
    return row;
  };

  it('reads each row by column name as its row object would', () => {
    const readers = columnReaders(fields, rows);
    expect(readers).toHaveLength(2);
    rows.forEach((values, r) => {
      const object = objectReader(asObject(values));
      for (const column of ['id', 'title', 'tags', 'missing'])
        expect(readers[r]!(column)).toEqual(object(column));
    });
    expect(readers[0]!('id')).toBe('a2');
    expect(readers[1]!('title')).toBeNull();
    expect(readers[1]!('missing')).toBeUndefined();
  });

  it('gives no reader for an empty result', () => {
    expect(columnReaders(fields, [])).toEqual([]);
  });
});
