/**
 * What tells findings apart in the list, from fields every finding already has: where it is
 * (`file:line`, `host:port`, the URL, the package and version) and which rule found it.
 */

/** The parts of a finding these texts read (FindingDto's). */
export interface PlaceFields {
  rule_id: string;
  rule_name: string | null;
  /** The rule's short title (the report's short description or name), when the API sends it. */
  rule_title?: string | null;
  title: string;
  cve?: string | null;
  component?: string | null;
  component_version?: string | null;
  location: {
    file_path?: string | null;
    start_line?: number | null;
    end_line?: number | null;
    host?: string | null;
    ip?: string | null;
    port?: number | null;
    url?: string | null;
  };
}

/** `path:10` or `path:10-12`; the path alone without a line. */
export function fileAndLines(
  path: string,
  start: number | null | undefined,
  end: number | null | undefined,
): string {
  if (!start) return path;
  return end && end !== start ? `${path}:${start}-${end}` : `${path}:${start}`;
}

/**
 * Where a finding is, in one line: the URL of a web finding; `host:port` of a network one (the
 * IP when there is no name; IPv6 in brackets); `file:line` of code; a package finding leads with
 * `package@version` and then its manifest file.
 */
export function locationText(f: PlaceFields): string {
  const l = f.location;
  if (l.url) return l.url;
  const host = l.host ?? l.ip;
  if (host) {
    const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return l.port ? `${shown}:${l.port}` : shown;
  }
  const file = l.file_path ? fileAndLines(l.file_path, l.start_line, l.end_line) : '';
  if (f.component) {
    const pkg = f.component_version ? `${f.component}@${f.component_version}` : f.component;
    return file ? `${pkg} · ${file}` : pkg;
  }
  return file;
}

/**
 * The rule of a finding: its id, and its short title when the report gives one that says more
 * than the id — `rule_title` (the rule's short description, else its name), else `rule_name` —
 * never the scanner's full message, which is the finding's title.
 */
export function ruleText(f: PlaceFields): { id: string; name: string | undefined } {
  const name = [f.rule_title, f.rule_name].map((n) => n?.trim()).find((n) => n && n !== f.rule_id);
  return { id: f.rule_id, name };
}

/**
 * A link to the file at the commit in the product's repository (GitHub, GitLab, Gitea and
 * Forgejo, Bitbucket), with its lines; undefined when the repository address is not an http(s)
 * one or the location is no file. Without a known commit the link goes to the default branch's
 * HEAD.
 */
export function repositoryFileUrl(
  repositoryUrl: string | null | undefined,
  revision: string | null | undefined,
  path: string | null | undefined,
  start?: number | null,
  end?: number | null,
): string | undefined {
  if (!repositoryUrl || !path) return undefined;
  let base: URL;
  try {
    base = new URL(repositoryUrl.trim());
  } catch {
    return undefined;
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') return undefined;
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '').replace(/\.git$/, '')}`;
  const rev = encodeURIComponent(revision?.trim() || 'HEAD');
  const file = path
    .replace(/^\.?\//, '')
    .split('/')
    .map(encodeURIComponent)
    .join('/');
  const host = base.hostname.toLowerCase();
  const last = end && end !== start ? end : undefined;
  if (host === 'bitbucket.org' || host.startsWith('bitbucket.')) {
    const lines = start ? `#lines-${start}${last ? `:${last}` : ''}` : '';
    return `${root}/src/${rev}/${file}${lines}`;
  }
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) {
    const lines = start ? `#L${start}${last ? `-${last}` : ''}` : '';
    return `${root}/-/blob/${rev}/${file}${lines}`;
  }
  if (host.startsWith('gitea.') || host.startsWith('forgejo.') || host === 'codeberg.org') {
    const lines = start ? `#L${start}${last ? `-L${last}` : ''}` : '';
    return `${root}/src/commit/${rev}/${file}${lines}`;
  }
  const lines = start ? `#L${start}${last ? `-L${last}` : ''}` : '';
  return `${root}/blob/${rev}/${file}${lines}`;
}
