import { locationText, repositoryFileUrl, ruleText, type PlaceFields } from './finding-place';

const base: PlaceFields = { rule_id: 'r', rule_name: null, title: 't', location: {} };

describe('where a finding is, in the list', () => {
  it('code: file and line, or the line range', () => {
    expect(
      locationText({ ...base, location: { file_path: 'src/db.ts', start_line: 10, end_line: 10 } }),
    ).toBe('src/db.ts:10');
    expect(
      locationText({ ...base, location: { file_path: 'src/db.ts', start_line: 10, end_line: 12 } }),
    ).toBe('src/db.ts:10-12');
    expect(locationText({ ...base, location: { file_path: 'Dockerfile' } })).toBe('Dockerfile');
  });

  it('network: host and port, the IP without a name, IPv6 in brackets; web: the URL', () => {
    expect(
      locationText({ ...base, location: { host: 'db.prod', ip: '10.0.0.5', port: 5432 } }),
    ).toBe('db.prod:5432');
    expect(locationText({ ...base, location: { ip: '10.0.0.5', port: 22 } })).toBe('10.0.0.5:22');
    expect(locationText({ ...base, location: { host: '2001:db8::1', port: 443 } })).toBe(
      '[2001:db8::1]:443',
    );
    expect(
      locationText({
        ...base,
        location: { url: 'https://shop.example/login', host: 'shop.example' },
      }),
    ).toBe('https://shop.example/login');
  });

  it('a package: name@version, then its manifest (two CVEs of one package stay apart by rule)', () => {
    expect(
      locationText({
        ...base,
        component: 'lodash',
        component_version: '4.17.20',
        location: { file_path: 'package-lock.json' },
      }),
    ).toBe('lodash@4.17.20 · package-lock.json');
    expect(locationText({ ...base, component: 'openssl', location: {} })).toBe('openssl');
  });

  it('the rule: its id, and a name only when it says more than the id', () => {
    expect(ruleText({ ...base, rule_id: 'aws-access-token', rule_name: 'AWS' })).toEqual({
      id: 'aws-access-token',
      name: 'AWS',
    });
    expect(ruleText({ ...base, rule_id: 'CVE-2021-23337', rule_name: 'CVE-2021-23337' })).toEqual({
      id: 'CVE-2021-23337',
      name: undefined,
    });
    expect(ruleText({ ...base, rule_id: 'x', rule_name: '  ' }).name).toBeUndefined();
  });

  it("prefers the rule's short title, never repeats the id", () => {
    expect(
      ruleText({
        ...base,
        rule_id: 'js/sql-injection',
        rule_name: 'js/sql-injection',
        rule_title: 'Database query built from user-controlled sources',
      }),
    ).toEqual({
      id: 'js/sql-injection',
      name: 'Database query built from user-controlled sources',
    });
    expect(
      ruleText({
        ...base,
        rule_id: 'CVE-1',
        rule_name: 'Package vulnerability',
        rule_title: 'CVE-1',
      }).name,
    ).toBe('Package vulnerability');
  });
});

describe('a link to the file at the commit', () => {
  it('GitHub-style by default, with the line range; .git and trailing slashes dropped', () => {
    expect(
      repositoryFileUrl('https://github.com/acme/shop.git/', 'abc123', 'src/db.ts', 10, 12),
    ).toBe('https://github.com/acme/shop/blob/abc123/src/db.ts#L10-L12');
    expect(repositoryFileUrl('https://git.acme.test/shop', null, './a b.ts', 3, 3)).toBe(
      'https://git.acme.test/shop/blob/HEAD/a%20b.ts#L3',
    );
  });

  it('GitLab, Bitbucket and Gitea have their own paths', () => {
    expect(repositoryFileUrl('https://gitlab.com/acme/shop', 'abc', 'x.py', 5, 7)).toBe(
      'https://gitlab.com/acme/shop/-/blob/abc/x.py#L5-7',
    );
    expect(repositoryFileUrl('https://bitbucket.org/acme/shop', 'abc', 'x.py', 5)).toBe(
      'https://bitbucket.org/acme/shop/src/abc/x.py#lines-5',
    );
    expect(repositoryFileUrl('https://codeberg.org/acme/shop', 'abc', 'x.py')).toBe(
      'https://codeberg.org/acme/shop/src/commit/abc/x.py',
    );
  });

  it('no link without an http(s) repository or a file', () => {
    expect(repositoryFileUrl('git@github.com:acme/shop.git', 'abc', 'x.py')).toBeUndefined();
    expect(repositoryFileUrl('javascript:alert(1)', 'abc', 'x.py')).toBeUndefined();
    expect(repositoryFileUrl(null, 'abc', 'x.py')).toBeUndefined();
    expect(repositoryFileUrl('https://github.com/a/b', 'abc', null)).toBeUndefined();
  });
});
