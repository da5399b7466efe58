import { isWebAddress, normalizeFindingPath, normalizeWebAddress } from './finding-path';

describe('normalizeFindingPath', () => {
  it.each([
    ['src/a.c', 'src/a.c'],
    ['./src//a.c', 'src/a.c'],
    ['src\\win\\a.cs', 'src/win/a.cs'],
    ['file:///builds/x/src/a.c', '/builds/x/src/a.c'],
    ['file://localhost/etc/passwd', '/etc/passwd'],
    ['file:///C:/work/a.c', 'C:/work/a.c'],
    ['src/my%20file.c', 'src/my file.c'],
    ['src/bad%zzname.c', 'src/bad%zzname.c'],
    ['a/b/../c/./d.c', 'a/c/d.c'],
    ['../outside/a.c', '../outside/a.c'],
    ['/../a.c', '/a.c'],
    ['src/dir/', 'src/dir'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeFindingPath(input)).toBe(expected);
  });
});

describe('web addresses', () => {
  it('recognizes http(s) addresses only', () => {
    expect(['http://a', 'HTTPS://a', 'ftp://a', 'src/http://a'].map(isWebAddress)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('lower-cases scheme and host only', () => {
    expect(normalizeWebAddress('HTTPS://User:PW@Shop.Example.COM:8443/A/B?Q=X#F')).toBe(
      'https://User:PW@shop.example.com:8443/A/B?Q=X#F',
    );
  });
});
