/** Longest UPN accepted (Active Directory: 1024 characters for the attribute; 256 in practice). */
export const UPN_MAX_LENGTH = 256;

/**
 * The shape of a user principal name: `name@suffix`, exactly one `@`, both sides non-empty,
 * no control characters, no spaces, at most UPN_MAX_LENGTH characters. What it means is the
 * directory's business; this only bounds what reaches the filter.
 */
export function upnProblem(upn: string): string | undefined {
  if (upn.length === 0 || upn.length > UPN_MAX_LENGTH) {
    return `must be 1 to ${UPN_MAX_LENGTH} characters`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/u.test(upn)) {
    return 'must not contain spaces or control characters';
  }
  const at = upn.split('@');
  if (at.length !== 2 || at[0] === '' || at[1] === '') return 'must be name@suffix with one @';
  return undefined;
}
