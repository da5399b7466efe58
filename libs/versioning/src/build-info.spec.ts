import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildStamp,
  formatVersion,
  isValidVersion,
  readCommitFromGitDir,
  stampBuildInfo,
} from './build-info';

const WORKSPACE = join(__dirname, '../../..');

describe('build info', () => {
  it('stamps BUILD as UTC YYYYMMDDHHMMSS', () => {
    expect(buildStamp(new Date('2026-11-22T03:19:07.123Z'))).toBe('20261122031907');
  });

  it('formats X.Y.BUILD+COMMIT', () => {
    const v = formatVersion('0.1', new Date('2026-01-02T03:04:05Z'), 'abc1234');
    expect(v).toBe('0.1.20260102030405+abc1234');
    expect(isValidVersion(v)).toBe(true);
  });

  it('rejects malformed versions', () => {
    expect(isValidVersion('0.1.2026+abc')).toBe(false);
    expect(isValidVersion('0.1.20260102030405')).toBe(false);
  });

  it('stamps the workspace with its package major.minor and a commit', () => {
    const info = stampBuildInfo(WORKSPACE, new Date('2026-01-02T03:04:05Z'));
    expect(info.majorMinor).toMatch(/^\d+\.\d+$/);
    expect(isValidVersion(info.version)).toBe(true);
    expect(info.builtAt).toBe('2026-01-02T03:04:05Z');
  });

  describe('the commit read from the repository files, without git', () => {
    const A = '0123456789abcdef0123456789abcdef01234567';
    const B = 'fedcba9876543210fedcba9876543210fedcba98';
    let gitDir: string;
    beforeEach(() => {
      gitDir = mkdtempSync(join(tmpdir(), 'build-info-git-'));
      mkdirSync(join(gitDir, 'refs/heads'), { recursive: true });
    });
    afterEach(() => rmSync(gitDir, { recursive: true, force: true }));

    it('agrees with git rev-parse on this checkout', () => {
      const git = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: WORKSPACE })
        .toString()
        .trim();
      expect(readCommitFromGitDir(join(WORKSPACE, '.git'))).toBe(git);
    });

    it('reads a detached HEAD, a loose ref and a packed ref', () => {
      writeFileSync(join(gitDir, 'HEAD'), `${A}\n`);
      expect(readCommitFromGitDir(gitDir)).toBe('0123456');
      writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(
        join(gitDir, 'packed-refs'),
        `# pack-refs with: peeled\n${B} refs/heads/main\n`,
      );
      expect(readCommitFromGitDir(gitDir)).toBe('fedcba9');
      // A loose ref is newer than the packed one.
      writeFileSync(join(gitDir, 'refs/heads/main'), `${A}\n`);
      expect(readCommitFromGitDir(gitDir)).toBe('0123456');
    });

    it('leaves anything else to git: no repository, an unborn branch, a ref outside refs/', () => {
      expect(readCommitFromGitDir(join(gitDir, 'missing'))).toBeUndefined();
      writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/heads/unborn\n');
      expect(readCommitFromGitDir(gitDir)).toBeUndefined();
      writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/../../etc/passwd\n');
      expect(readCommitFromGitDir(gitDir)).toBeUndefined();
      writeFileSync(join(gitDir, 'HEAD'), 'not a ref\n');
      expect(readCommitFromGitDir(gitDir)).toBeUndefined();
    });
  });
});
