import { formatMappings, parseMappings } from './group-mappings';

describe('cluster group mappings as text', () => {
  it('reads one mapping a line and writes them back the same way', () => {
    const text =
      'any = viewers\nrole:cert-admin = admins\n\n  alias:ops=operators  \nuser:ann@example.com = dev';
    const mappings = parseMappings(text);
    expect(mappings).toEqual([
      { source: 'any', value: '', group: 'viewers' },
      { source: 'role', value: 'cert-admin', group: 'admins' },
      { source: 'alias', value: 'ops', group: 'operators' },
      { source: 'user', value: 'ann@example.com', group: 'dev' },
    ]);
    expect(formatMappings(mappings as never)).toBe(
      'any = viewers\nrole:cert-admin = admins\nalias:ops = operators\nuser:ann@example.com = dev',
    );
  });

  it('names the first line that is not a mapping', () => {
    expect(parseMappings('any = a\nteam:x = b')).toEqual({ badLine: 'team:x = b' });
    expect(parseMappings('any:x = a')).toEqual({ badLine: 'any:x = a' });
    expect(parseMappings('role = a')).toEqual({ badLine: 'role = a' });
    expect(parseMappings('role:cert-admin =')).toEqual({ badLine: 'role:cert-admin =' });
    expect(parseMappings('')).toEqual([]);
  });
});
