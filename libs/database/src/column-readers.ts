/** A row's value of a column, by the column's name (undefined when the row has no such column). */
export type ColumnReader = (column: string) => unknown;

/**
 * Readers over rows node-pg returned with `rowMode: 'array'`, with the column names of the
 * result's `fields`: the same values as the row objects of the default mode, where a name
 * that appears twice reads the last such column, as the object's later key wins.
 *
 * For wide reads (a list page of findings has ~75 columns): node-pg builds each row object
 * as a copy of a null-prototype template and sets every column by name, which V8 keeps as a
 * hash table — ~5 KB more garbage a row than an array (docs/benchmarks.md#issue-34-array-rows);
 * the name → position map is built once per result.
 */
export function columnReaders(
  fields: ReadonlyArray<{ name: string }>,
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
): ColumnReader[] {
  const position = new Map<string, number>();
  fields.forEach((field, i) => position.set(field.name, i));
  return rows.map((values) => (column) => {
    const i = position.get(column);
    return i === undefined ? undefined : values[i];
  });
}

/** A reader over a row object (TypeORM's `query`, node-pg's default mode). */
export function objectReader(row: Readonly<Record<string, unknown>>): ColumnReader {
  return (column) => row[column];
}
