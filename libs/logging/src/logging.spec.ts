import pino, { type TransportTargetOptions } from 'pino';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildLoggerOptions, prepareLogFileSink, resolveRequestId } from './index';

/** Path of the first file in `directory` that contains `text`; polls with a deadline. */
async function waitForLine(directory: string, text: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const name of await readdir(directory)) {
      const path = join(directory, name);
      if ((await readFile(path, 'utf8')).includes(text)) return path;
    }
    if (Date.now() > deadline) throw new Error(`no file in ${directory} contains "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('logging lib', () => {
  it('honours the level and redacts secrets in JSON mode', () => {
    const out = capture();
    const options = buildLoggerOptions({ level: 'warn', json: true });
    expect(options.transport).toBeUndefined();
    expect(options.formatters?.level).toBeDefined();
    const logger = pino(options, out.stream);
    logger.info('hidden');
    logger.warn(
      {
        req: { headers: { authorization: 'Bearer abc', 'x-api-key': 'sa_1' } },
        body: { password: 'pw' },
      },
      'shown',
    );
    const lines = out.lines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', msg: 'shown' });
    expect(JSON.stringify(lines[0])).not.toMatch(/abc|sa_1|"pw"/);
  });

  it('stamps the mixin fields (trace ids) computed for each line', () => {
    const out = capture();
    let spanId = 'a';
    const logger = pino(
      buildLoggerOptions({ level: 'info', json: true, mixin: () => ({ span_id: spanId }) }),
      out.stream,
    );
    logger.info('first');
    spanId = 'b';
    logger.info('second');
    expect(out.lines().map((l) => [l.msg, l.span_id])).toEqual([
      ['first', 'a'],
      ['second', 'b'],
    ]);
  });

  it('adds a rotated file target when the file sink is on', async () => {
    const root = await mkdtemp(join(tmpdir(), 'log-sink-'));
    const directory = join(root, 'logs');
    const options = buildLoggerOptions({
      level: 'info',
      json: true,
      fileSink: { directory, fileName: 'svc.log' },
    });
    const targets = (options.transport as { targets: { target: string }[] }).targets.map(
      (t) => t.target,
    );
    expect(targets).toEqual(['pino/file', 'pino-roll']);
    // pino throws on a level formatter combined with transport targets.
    expect(options.formatters?.level).toBeUndefined();
    await rm(root, { recursive: true, force: true });
  });

  it('writes log files 0600 in a directory it creates 0700', async () => {
    const root = await mkdtemp(join(tmpdir(), 'log-sink-'));
    const directory = join(root, 'logs');
    const options = buildLoggerOptions({
      level: 'info',
      json: true,
      fileSink: { directory, fileName: 'svc.log' },
    });
    const { targets } = options.transport as { targets: TransportTargetOptions[] };
    const transport = pino.transport({ targets: targets.filter((t) => t.target === 'pino-roll') });
    const logger = pino({ ...options, transport: undefined }, transport);
    logger.info('written to the file sink');
    const file = await waitForLine(directory, 'written to the file sink');
    transport.end();
    await once(transport, 'close');
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await rm(root, { recursive: true, force: true });
  });

  it('narrows log files an earlier run left readable by others', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'log-sink-'));
    await writeFile(join(directory, 'svc.2024-01-01.1.log'), 'old line\n', { mode: 0o644 });
    await writeFile(join(directory, 'other.txt'), 'not a log\n', { mode: 0o644 });
    prepareLogFileSink(directory, 'svc.log');
    expect((await stat(join(directory, 'svc.2024-01-01.1.log'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(directory, 'other.txt'))).mode & 0o777).toBe(0o644);
    await rm(directory, { recursive: true, force: true });
  });

  it('echoes a sane X-Request-ID and replaces a hostile one', () => {
    expect(resolveRequestId({ 'x-request-id': 'abc-123' })).toBe('abc-123');
    expect(resolveRequestId({ 'x-request-id': 'bad id\n' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(resolveRequestId({})).toMatch(/^[0-9a-f-]{36}$/);
  });
});
