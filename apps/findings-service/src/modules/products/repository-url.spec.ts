import { repositoryKey } from './repository-url';

describe('repositoryKey', () => {
  it.each([
    'https://github.com/Acme/Payments.git',
    'https://github.com/acme/payments',
    'https://user:token@github.com/acme/payments/',
    'http://github.com/acme/payments.git',
    'git@github.com:acme/payments.git',
    'git@github.com:acme/payments',
    'ssh://git@github.com/acme/payments.git',
    'ssh://git@github.com:22/acme/payments',
    'git+https://github.com/acme/payments.git',
  ])('normalizes %s to github.com/acme/payments', (address) => {
    expect(repositoryKey(address)).toBe('github.com/acme/payments');
  });

  it('keeps nested group paths', () => {
    expect(repositoryKey('https://gitlab.example.com/group/sub/repo.git')).toBe(
      'gitlab.example.com/group/sub/repo',
    );
  });

  it.each(['', 'payments', 'ftp://example.com/x', 'https://github.com', 'mailto:x@y'])(
    'refuses %p',
    (address) => {
      expect(repositoryKey(address)).toBeUndefined();
    },
  );
});
