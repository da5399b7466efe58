import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Build identity shared by every component: `X.Y.BUILD+COMMIT`. */
export interface BuildInfo {
  /** Full version string, e.g. `0.1.20261122031900+abc1234`. */
  version: string;
  /** Major.minor shared by all components, e.g. `0.1`. */
  majorMinor: string;
  /** Short git revision, `unknown` outside a checkout. */
  commit: string;
  /** ISO-8601 UTC timestamp of the build. */
  builtAt: string;
}

export const BUILD_INFO_FILE = 'build-info.json';

/** `YYYYMMDDHHMMSS` in UTC. */
export function buildStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, '');
}

export function formatVersion(majorMinor: string, builtAt: Date, commit: string): string {
  return `${majorMinor}.${buildStamp(builtAt)}+${commit}`;
}

const VERSION_PATTERN = /^(\d+)\.(\d+)\.(\d{14})\+([0-9a-z]+)$/;

export function isValidVersion(version: string): boolean {
  return VERSION_PATTERN.test(version);
}

/** Stamps a build: called by the build script, written next to the bundles. */
export function stampBuildInfo(workspaceRoot: string, now = new Date()): BuildInfo {
  const majorMinor = readMajorMinor(workspaceRoot);
  const commit = readCommit(workspaceRoot);
  return {
    version: formatVersion(majorMinor, now, commit),
    majorMinor,
    commit,
    builtAt: now.toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

let cached: BuildInfo | undefined;

/**
 * Resolves the running build: `build-info.json` beside the entry bundle (written at build
 * time), else a development stamp taken from the checkout at process start.
 */
export function currentBuildInfo(): BuildInfo {
  if (cached) return cached;
  // process.argv[1], not require.main: bundlers rewrite require.main to their own record.
  const entry = process.argv[1];
  const candidates = entry ? [join(dirname(entry), BUILD_INFO_FILE)] : [];
  for (const file of candidates) {
    if (existsSync(file)) {
      cached = JSON.parse(readFileSync(file, 'utf8')) as BuildInfo;
      return cached;
    }
  }
  cached = stampBuildInfo(findWorkspaceRoot(process.cwd()));
  return cached;
}

function readMajorMinor(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const [major = '0', minor = '0'] = (pkg.version ?? '0.0.0').split('.');
  return `${major}.${minor}`;
}

function readCommit(root: string): string {
  return readCommitFromGitDir(join(root, '.git')) ?? runGitRevParse(root);
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * HEAD's commit read from the repository's files (HEAD, a loose ref, packed-refs): no `git`
 * process. Every API boot of a development checkout stamps its build, and forking a large
 * Node process for `git rev-parse` took ~65 ms of each boot in the tests. Anything unusual
 * (a `.git` file of a worktree, a symbolic ref to a ref that is not there) is left to git.
 */
export function readCommitFromGitDir(gitDir: string): string | undefined {
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (OBJECT_ID.test(head)) return head.slice(0, 7);
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
    if (!ref || ref.split('/').includes('..')) return undefined;
    const loose = join(gitDir, ref);
    if (existsSync(loose)) {
      const id = readFileSync(loose, 'utf8').trim();
      return OBJECT_ID.test(id) ? id.slice(0, 7) : undefined;
    }
    const packed = join(gitDir, 'packed-refs');
    if (!existsSync(packed)) return undefined;
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const [id, name] = line.trim().split(' ');
      if (name === ref && id && OBJECT_ID.test(id)) return id.slice(0, 7);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function runGitRevParse(root: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

function findWorkspaceRoot(start: string): string {
  let dir = start;
  while (dir !== dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    dir = dirname(dir);
  }
  return start;
}
