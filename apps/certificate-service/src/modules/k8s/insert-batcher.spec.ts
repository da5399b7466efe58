import { InsertBatcher } from './insert-batcher';

describe('InsertBatcher', () => {
  it('writes the rows added in one turn with one call, later rows in the next', async () => {
    const writes: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new InsertBatcher<number>(async (rows) => {
      writes.push(rows);
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = [1, 2, 3].map((n) => batcher.add(n));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const second = [4, 5].map((n) => batcher.add(n));
    release();
    await Promise.all([...first, ...second]);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    await batcher.idle();
  });

  it('rejects every row of a failed batch and keeps writing later ones', async () => {
    let fail = true;
    const written: number[] = [];
    const batcher = new InsertBatcher<number>((rows) => {
      if (fail) {
        fail = false;
        return Promise.reject(new Error('down'));
      }
      written.push(...rows);
      return Promise.resolve();
    });
    const failed = Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await batcher.add(3);
    expect(written).toEqual([3]);
  });

  it('splits at maxBatch', async () => {
    const sizes: number[] = [];
    const batcher = new InsertBatcher<number>((rows) => {
      sizes.push(rows.length);
      return Promise.resolve();
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(sizes).toEqual([2, 2, 1]);
  });
});
