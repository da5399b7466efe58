// What the benches that drive a service over HTTP share: a JSON POST and a bounded pool of
// concurrent workers over a list of items.

/** POSTs `body` as JSON (with a bearer token when given) and reads the JSON answer. */
export async function post<T>(
  base: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Runs `work` over `items` with at most `concurrency` calls in flight. */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
