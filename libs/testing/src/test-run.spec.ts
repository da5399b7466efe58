import { identifierPart, testRunId } from './test-run';

describe('identifierPart', () => {
  it('keeps only characters safe in a database name', () => {
    expect(identifierPart('Certificate-Service', 20)).toBe('certificate_service');
    expect(identifierPart('run "1"; DROP', 20)).toBe('run_1_drop');
  });

  it('cuts to the maximum length', () => {
    expect(identifierPart('a'.repeat(80), 24)).toHaveLength(24);
  });

  it('never returns an empty part', () => {
    expect(identifierPart('---', 10)).toBe('x');
  });
});

describe('testRunId', () => {
  const saved = process.env.TEST_RUN_ID;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_RUN_ID;
    else process.env.TEST_RUN_ID = saved;
  });

  it('uses TEST_RUN_ID so all Jest workers share templates', () => {
    process.env.TEST_RUN_ID = '1732000000-4242';
    expect(testRunId()).toBe('1732000000_4242');
  });

  it('falls back to an id stable within the process', () => {
    delete process.env.TEST_RUN_ID;
    expect(testRunId()).toMatch(/^[0-9a-f]{8}$/);
    expect(testRunId()).toBe(testRunId());
  });
});
