import pino from 'pino';
import { Writable } from 'node:stream';
import { buildLoggerOptions, resolveRequestId } from './index';

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

  it('adds a rotated file target when the file sink is on', () => {
    const options = buildLoggerOptions({
      level: 'info',
      json: true,
      fileSink: { directory: '/tmp/x', fileName: 'svc.log' },
    });
    const targets = (options.transport as { targets: { target: string }[] }).targets.map(
      (t) => t.target,
    );
    expect(targets).toEqual(['pino/file', 'pino-roll']);
    // pino throws on a level formatter combined with transport targets.
    expect(options.formatters?.level).toBeUndefined();
  });

  it('echoes a sane X-Request-ID and replaces a hostile one', () => {
    expect(resolveRequestId({ 'x-request-id': 'abc-123' })).toBe('abc-123');
    expect(resolveRequestId({ 'x-request-id': 'bad id\n' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(resolveRequestId({})).toMatch(/^[0-9a-f-]{36}$/);
  });
});
