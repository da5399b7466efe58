/**
 * Normalizes a git repository address so that its https, ssh and `.git` forms match:
 * `https://GitHub.com/Org/Repo.git`, `git@github.com:org/repo`, `ssh://git@github.com:22/org/repo/`
 * all become `github.com/org/repo`. Credentials, ports, query and fragment are dropped.
 * Returns undefined for something that is not a repository address.
 */
export function repositoryKey(address: string): string | undefined {
  const value = address.trim();
  let host: string;
  let path: string;
  const scp = /^(?:[\w.-]+@)?([\w.-]+):(?!\/\/)(?!\d+(?:\/|$))([^/].*\/.+)$/.exec(value);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value.replace(/^git\+/i, ''));
    } catch {
      return undefined;
    }
    if (!['http:', 'https:', 'ssh:', 'git:'].includes(url.protocol)) return undefined;
    host = url.hostname;
    path = decodeURIComponent(url.pathname);
  } else if (scp) {
    host = scp[1];
    path = scp[2];
  } else {
    return undefined;
  }
  const cleanPath = path
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/^\/+/, '');
  if (!host || !cleanPath) return undefined;
  return `${host}/${cleanPath}`.toLowerCase();
}
