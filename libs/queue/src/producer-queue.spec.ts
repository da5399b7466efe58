import { createServer } from 'node:net';
import { ProducerQueue, type ProducerQueueOptions } from './producer-queue';

/** A port nothing listens on: a server bound, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('ProducerQueue', () => {
  let options: ProducerQueueOptions;
  beforeAll(async () => {
    options = {
      redisUrl: `redis://127.0.0.1:${await deadPort()}`,
      queueName: 'unit-queue',
      prefix: 'unit',
      connectionName: 'unit-producer',
    };
  });

  it('opens nothing until first used, then one queue with the given name and prefix', async () => {
    const read = jest.fn(() => options);
    const handle = new ProducerQueue(read);
    expect(read).not.toHaveBeenCalled();
    const queue = handle.queue;
    expect(handle.queue).toBe(queue);
    expect(read).toHaveBeenCalledTimes(1);
    expect(queue.name).toBe('unit-queue');
    expect(queue.opts.prefix).toBe('unit');
    // Closing while Redis is unreachable does not wait for it.
    await handle.onApplicationShutdown();
  });

  it('closes a handle that was never used without opening anything', async () => {
    const read = jest.fn(() => options);
    await new ProducerQueue(read).onApplicationShutdown();
    expect(read).not.toHaveBeenCalled();
  });
});
