import { DatabaseError } from 'pg';
import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { createCertsvcLogger } from './certsvc-logger';
import { NestLoggerAdapter } from './nest-logger.adapter';

function capture(): { adapter: NestLoggerAdapter; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = createCertsvcLogger({ logLevel: 'debug', devMode: false }, stream);
  return { adapter: new NestLoggerAdapter(logger), text: () => chunks.join('') };
}

describe('NestLoggerAdapter', () => {
  it('logs a database error by statement kind and SQLSTATE, without values', () => {
    const driver = Object.assign(
      new DatabaseError('value "wca_c2VjcmV0c2VjcmV0c2VjcmV0" refused', 0, 'error'),
      { severity: 'ERROR', code: '22P02', detail: 'row (hash-1234)' },
    );
    const error = new QueryFailedError('SELECT 1 WHERE $1', ['hash-1234'], driver);
    const out = capture();
    out.adapter.error(error, 'Bootstrap');
    const line = JSON.parse(out.text()) as { msg: string; stack: string; context: string };
    expect(line).toMatchObject({ msg: 'SELECT failed: SQLSTATE 22P02', context: 'Bootstrap' });
    expect(line.stack).toMatch(/^QueryFailedError: SELECT failed: SQLSTATE 22P02\n\s+at /);
    expect(out.text()).not.toMatch(/hash-1234|c2VjcmV0|refused/);
  });
});
