import { StatementBatcher } from './statement-batcher';

/** A statement that takes a while and records the inputs of each call. */
function recorded(fail?: (inputs: number[]) => boolean) {
  const calls: number[][] = [];
  const batcher = new StatementBatcher<number, string>(async (inputs) => {
    calls.push(inputs);
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (fail?.(inputs)) throw new Error('statement failed');
    return inputs.map((i) => `answer ${i}`);
  }, 10);
  return { batcher, calls };
}

describe('StatementBatcher (statements shared by concurrent callers)', () => {
  it('one statement for the calls of one turn, each caller gets its own answer', async () => {
    const { batcher, calls } = recorded();
    const answers = await Promise.all([1, 2, 3].map((i) => batcher.submit(i)));
    expect(answers).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('calls made while a statement is in flight go together into the next one', async () => {
    const { batcher, calls } = recorded();
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((i) => batcher.submit(i));
    expect(calls).toEqual([[1]]);
    await Promise.all([first, ...later]);
    expect(calls).toEqual([[1], [2, 3, 4]]);
  });

  it('resolves a caller only after its statement has finished', async () => {
    const { batcher, calls } = recorded();
    let done = false;
    const pending = batcher.submit(7).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual([[7]]);
    expect(done).toBe(false);
    await pending;
    expect(done).toBe(true);
  });

  it('caps a statement at maxBatch inputs', async () => {
    const { batcher, calls } = recorded();
    await Promise.all(Array.from({ length: 25 }, (_, i) => batcher.submit(i)));
    expect(calls.map((c) => c.length)).toEqual([10, 10, 5]);
  });

  it('a failed statement rejects its callers only; the next statement still runs', async () => {
    const { batcher } = recorded((inputs) => inputs.includes(2));
    const first = [1, 2].map((i) => batcher.submit(i));
    const results = await Promise.allSettled(first);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(batcher.submit(3)).resolves.toBe('answer 3');
  });

  it('rejects when the statement answers a different number of rows', async () => {
    const batcher = new StatementBatcher<number, number>(async () => [1]);
    const results = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
