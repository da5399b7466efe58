import { inChunks } from './chunks';

describe('inChunks', () => {
  it('sends the ids in order in chunks of the size and reports progress after each', async () => {
    const sent: string[][] = [];
    const progress: [number, number][] = [];
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const results = await inChunks(
      ids,
      2,
      async (chunk) => {
        sent.push(chunk);
        return chunk.map((id) => `${id}!`);
      },
      (done, total) => progress.push([done, total]),
    );
    expect(sent).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(results).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
    expect(progress).toEqual([
      [0, 5],
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it('stops at the first failing chunk', async () => {
    const send = jest.fn(async (chunk: string[]) => {
      if (chunk.includes('c')) throw new Error('refused');
      return chunk;
    });
    await expect(inChunks(['a', 'b', 'c', 'd'], 2, send, () => undefined)).rejects.toThrow(
      'refused',
    );
    expect(send).toHaveBeenCalledTimes(2);
  });
});
