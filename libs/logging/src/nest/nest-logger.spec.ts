import { NestFactory } from '@nestjs/core';
import { DatabaseError } from 'pg';
import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { LoggingModule } from './logging.module';
import { NestLogger } from './nest-logger';
import { createProcessLogger } from './process-logger';

type Line = Record<string, unknown> & { err?: { stack?: string } };

async function capture(): Promise<{
  logger: NestLogger;
  lines: () => Line[];
  close(): Promise<void>;
}> {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const context = await NestFactory.createApplicationContext(
    LoggingModule.forRoot({ logger: createProcessLogger({ level: 'debug', json: true }, stream) }),
    { logger: false },
  );
  return {
    logger: context.get(NestLogger),
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line),
    close: () => context.close(),
  };
}

describe('NestLogger', () => {
  it('logs a database error by statement kind and SQLSTATE, without values', async () => {
    const driver = Object.assign(
      new DatabaseError('value "wca_c2VjcmV0c2VjcmV0c2VjcmV0" refused', 0, 'error'),
      { severity: 'ERROR', code: '22P02', detail: 'row (hash-1234)' },
    );
    const error = new QueryFailedError('SELECT 1 WHERE $1', ['hash-1234'], driver);
    const out = await capture();
    out.logger.error(error, 'Bootstrap');
    out.logger.error(error);
    const [withContext, withoutContext] = out.lines();
    expect(withContext).toMatchObject({
      level: 'error',
      msg: 'SELECT failed: SQLSTATE 22P02',
      context: 'Bootstrap',
    });
    expect(withContext.err?.stack).toMatch(
      /^QueryFailedError: SELECT failed: SQLSTATE 22P02\n\s+at /,
    );
    expect(withoutContext).toMatchObject({ msg: 'SELECT failed: SQLSTATE 22P02' });
    expect(withoutContext).not.toHaveProperty('context');
    expect(JSON.stringify(out.lines())).not.toMatch(/hash-1234|c2VjcmV0|refused/);
    await out.close();
  });

  it("writes Nest's start-up chatter at debug and the rest at its level", async () => {
    const out = await capture();
    out.logger.log('AppModule dependencies initialized', 'InstanceLoader');
    out.logger.log('listening', 'Main');
    expect(out.lines().map((l) => [l.level, l.msg, l.context])).toEqual([
      ['debug', 'AppModule dependencies initialized', 'InstanceLoader'],
      ['info', 'listening', 'Main'],
    ]);
    await out.close();
  });

  it('keeps an earlier app logging while the module of a second app is being defined (an API and an in-process worker)', async () => {
    const api = await capture();
    const worker: string[] = [];
    LoggingModule.forRoot({
      logger: createProcessLogger(
        { level: 'debug', json: true },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            worker.push(chunk.toString());
            done();
          },
        }),
      ),
    });
    // Nest's static logger still writes through the API's NestLogger at this point.
    api.logger.warn('outside any request', 'DataSourceNameRegistry');
    expect(JSON.parse(worker.join(''))).toMatchObject({
      level: 'warn',
      msg: 'outside any request',
    });
    await api.close();
  });
});
