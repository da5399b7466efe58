import { snakeCase, SnakeNamingStrategy } from './snake-naming.strategy';

describe('snakeCase', () => {
  it.each([
    ['cveId', 'cve_id'],
    ['firstSeenAt', 'first_seen_at'],
    ['HTTPServer', 'http_server'],
    ['sha256Digest', 'sha256_digest'],
    ['FindingEntity', 'finding_entity'],
    ['already_snake', 'already_snake'],
    ['id', 'id'],
  ])('%s -> %s', (input, expected) => {
    expect(snakeCase(input)).toBe(expected);
  });
});

describe('SnakeNamingStrategy', () => {
  const strategy = new SnakeNamingStrategy();

  it('maps camelCase properties to snake_case columns', () => {
    expect(strategy.columnName('lastSeenAt', undefined, [])).toBe('last_seen_at');
  });

  it('keeps an explicit column name', () => {
    expect(strategy.columnName('lastSeenAt', 'seen', [])).toBe('seen');
  });

  it('prefixes embedded columns', () => {
    expect(strategy.columnName('notAfter', undefined, ['validityWindow'])).toBe(
      'validity_window_not_after',
    );
  });

  it('derives table names from class names unless given', () => {
    expect(strategy.tableName('ScanReport', undefined)).toBe('scan_report');
    expect(strategy.tableName('ScanReport', 'reports')).toBe('reports');
  });

  it('names join columns after the relation', () => {
    expect(strategy.joinColumnName('issuingAuthority', 'id')).toBe('issuing_authority_id');
  });
});
