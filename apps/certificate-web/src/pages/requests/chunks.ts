/**
 * A bulk action over many rows, in chunks (the API takes at most 5 000 ids a call; smaller
 * chunks let the queue show progress and keep each call short): `send` runs per chunk in
 * order, `onProgress` hears the rows done so far. The rows' results in order.
 */
export async function inChunks<T>(
  ids: readonly string[],
  size: number,
  send: (chunk: string[]) => Promise<T[]>,
  onProgress: (done: number, total: number) => void,
): Promise<T[]> {
  const results: T[] = [];
  onProgress(0, ids.length);
  for (let start = 0; start < ids.length; start += size) {
    const chunk = ids.slice(start, start + size);
    results.push(...(await send(chunk)));
    onProgress(Math.min(start + size, ids.length), ids.length);
  }
  return results;
}
