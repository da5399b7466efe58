import { createServer } from 'node:net';
import { freePort } from './free-port';

function listen(port: number): Promise<ReturnType<typeof createServer>> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('freePort', () => {
  it('returns a port a server can listen on, below the ephemeral range', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_768);
    const server = await listen(port);
    await new Promise((resolve) => server.close(resolve));
  });

  it('never hands out one port twice, even when the first was never bound', async () => {
    const ports = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
  });

  it('skips a port another server holds', async () => {
    const taken = await freePort();
    const server = await listen(taken + 1);
    try {
      expect(await freePort()).not.toBe(taken + 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
