import { QueryFailedError } from 'typeorm';
import { classifyIngestionFailure } from './ingestion-failure';
import { StoredReportReadError } from './parser-thread/stored-report-read-error';
import { ReportParseError } from '@platform/report-parsing';

function pgError(code: string, message = 'driver text'): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

function ormError(code: string): QueryFailedError {
  return new QueryFailedError('UPDATE reports SET x = $1', ['secret-value'], pgError(code));
}

describe('classifyIngestionFailure', () => {
  it.each([
    [
      'connection refused',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['terminated connection', new Error('Connection terminated unexpectedly')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['admin shutdown', pgError('57P01')],
    ['cannot connect now', pgError('57P03')],
    ['connection failure', pgError('08006')],
    ['lock timeout', ormError('55P03')],
    ['serialization failure', ormError('40001')],
    ['deadlock', ormError('40P01')],
    ['statement timeout', ormError('57014')],
    ['too many connections', pgError('53300')],
  ])('retries a transient failure: %s', (_name, error) => {
    expect(classifyIngestionFailure(error)).toMatchObject({
      retry: true,
      code: 'database_unavailable',
    });
  });

  it.each([
    ['integer out of range', ormError('22003')],
    ['NUL in text', ormError('22021')],
    ['invalid json', ormError('22P02')],
    ['value too long', ormError('22001')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a stack overflow', new RangeError('Maximum call stack size exceeded')],
    ['a parser thread that exited', new Error('ingestion parser thread exited with code 1')],
  ])('fails at once, as internal_error: %s', (_name, error) => {
    expect(classifyIngestionFailure(error)).toMatchObject({ retry: false, code: 'internal_error' });
  });

  it('fails parse errors with their code and details', () => {
    const error = new ReportParseError('report_malformed', 'malformed JSON at byte 7: x', {
      offset: 7,
    });
    expect(classifyIngestionFailure(error)).toMatchObject({
      retry: false,
      code: 'report_malformed',
      details: { offset: 7 },
    });
  });

  it('tells a missing file from a storage that may come back', () => {
    expect(classifyIngestionFailure(new StoredReportReadError('gone', 'ENOENT'))).toMatchObject({
      retry: false,
      code: 'report_file_missing',
    });
    expect(classifyIngestionFailure(new StoredReportReadError('EIO', 'EIO'))).toMatchObject({
      retry: true,
      code: 'storage_unavailable',
    });
  });

  it('a parser thread out of memory is a report too complex', () => {
    const oom = Object.assign(new Error('Worker terminated due to reaching memory limit'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    expect(classifyIngestionFailure(oom)).toMatchObject({
      retry: false,
      code: 'report_too_complex',
    });
  });

  it('logs the SQLSTATE and the message, never the statement or its parameters', () => {
    const { log } = classifyIngestionFailure(ormError('22003'));
    expect(log).toBe('QueryFailedError 22003: driver text');
    expect(log).not.toContain('secret-value');
    expect(log).not.toContain('UPDATE');
  });
});
