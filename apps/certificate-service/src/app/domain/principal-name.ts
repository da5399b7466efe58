/**
 * Login names on target servers, after the POSIX portable user-name rules as Debian's
 * `useradd` applies them (NAME_REGEX `^[a-z_][a-z0-9_-]*$`): a lower-case letter or `_` first,
 * then lower-case letters, digits, `_` and `-`; 1 to 32 characters (the `utmp` limit). No
 * upper case, dots, `@`, `$` or leading `-`, so a name is never an option or a path and means
 * the same on every server.
 */
export const PRINCIPAL_NAME_PATTERN = /^[a-z_][a-z0-9_-]{0,31}$/;
export const PRINCIPAL_NAME_MAX_LENGTH = 32;

export function isPrincipalName(value: string): boolean {
  return PRINCIPAL_NAME_PATTERN.test(value);
}

/**
 * The personal login of a person: the local part of the (lower-cased) email, when it is a
 * valid principal name (`alice@example.com` → `alice`); null otherwise (such a person reaches
 * servers through aliases only). Used for certificate principals and `keyholder/keys?login=`.
 */
export function personalLogin(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  const local = email.slice(0, at).toLowerCase();
  return isPrincipalName(local) ? local : null;
}

/** People are identified by their lower-cased email (as `users.email` and `devices.owner`). */
export function normalizePerson(email: string): string {
  return email.trim().toLowerCase();
}
