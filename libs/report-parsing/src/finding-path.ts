const WINDOWS_DRIVE = /^\/[A-Za-z]:\//;
/** Anything that normalization would change; clean paths skip the work. */
const NEEDS_NORMALIZATION = /^\s|\s$|^file:|^\/[A-Za-z]:\/|[\\%]|\/\/|(^|\/)\.\.?(\/|$)|\/$/i;

function decode(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Normalizes a file path or `file:` URI for display and identity: strips `file://`
 * (and `localhost`), percent-decodes, turns `\` into `/`, drops `.` segments, empty segments
 * and a leading `./`, resolves `..` where possible, and maps `/C:/x` to `C:/x`.
 * Case is preserved (paths are case-sensitive on the systems we scan).
 */
export function normalizeFindingPath(input: string): string {
  if (!NEEDS_NORMALIZATION.test(input)) return input;
  let path = input.trim();
  if (/^file:/i.test(path)) path = path.replace(/^file:(\/\/(localhost(?=\/))?)?/i, '');
  path = decode(path).replace(/\\/g, '/');
  if (WINDOWS_DRIVE.test(path)) path = path.slice(1);
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (segment === '..' && absolute) continue;
    else out.push(segment);
  }
  return (absolute ? '/' : '') + out.join('/');
}

/** True for an absolute URI with a scheme (`https:`, `file:`, `tcp:`...), not `C:/`. */
export function hasUriScheme(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]+:/.test(value) && !/^[A-Za-z]:[\\/]/.test(value);
}

/** True when the address is a web resource (spec: starts with http:// or https://). */
export function isWebAddress(value: string): boolean {
  return /^https?:\/\//i.test(value.trim());
}

/**
 * Normalizes a web address for identity: lower-cases the scheme and the host only (user
 * info, path, query and fragment are kept byte for byte).
 */
export function normalizeWebAddress(url: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(url.trim());
  if (!match) return url.trim();
  const [, scheme, authority, rest] = match;
  const at = authority.lastIndexOf('@');
  const userInfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const host = authority.slice(at + 1).toLowerCase();
  return `${scheme.toLowerCase()}://${userInfo}${host}${rest}`;
}
