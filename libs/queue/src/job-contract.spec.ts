import { UnrecoverableError } from 'bullmq';
import { defineJobContract } from './job-contract';
import { InvalidJobPayloadError } from './queue.errors';

interface IngestReport {
  reportId: string;
}

const ingestReport = defineJobContract<IngestReport>('ingest-report', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { reportId } = data as Record<string, unknown>;
  if (typeof reportId !== 'string') throw new Error('reportId must be a string');
  return { reportId };
});

describe('defineJobContract', () => {
  it('returns the typed payload when it is valid', () => {
    expect(ingestReport.parse({ reportId: 'r-1', extra: true })).toEqual({ reportId: 'r-1' });
    expect(ingestReport.name).toBe('ingest-report');
  });

  it('rejects an invalid payload with a reason and the job name', () => {
    expect(() => ingestReport.parse({ reportId: 42 })).toThrow(
      'invalid payload for job "ingest-report": reportId must be a string',
    );
  });

  it('makes an invalid payload unrecoverable, so BullMQ does not retry it', () => {
    let caught: unknown;
    try {
      ingestReport.parse(null);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidJobPayloadError);
    expect(caught).toBeInstanceOf(UnrecoverableError);
    expect((caught as InvalidJobPayloadError).code).toBe('invalid_job_payload');
  });
});
