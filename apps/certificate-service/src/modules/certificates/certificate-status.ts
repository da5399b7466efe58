/** An issued certificate stays `active` until revoked; expiry is read from `not_after`. */
export const CERTIFICATE_STATUSES = ['active', 'revoked'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/**
 * Owner-confirmation step of one certificate (`PUT /certificates/{serial}/key-protection`):
 * `none` (default) no confirmation, `prompt` the agent asks the owner before using the key,
 * `required` every use needs the owner's confirmation (user presence).
 */
export const KEY_PROTECTION_LEVELS = ['none', 'prompt', 'required'] as const;
export type KeyProtectionLevel = (typeof KEY_PROTECTION_LEVELS)[number];
