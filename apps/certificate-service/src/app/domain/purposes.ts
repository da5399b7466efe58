/** Certificate purposes known to the service. */
export const PURPOSES = ['wifi', 'user_mtls', 'ad_logon', 'ssh', 'k8s', 'vpn'] as const;
export type Purpose = (typeof PURPOSES)[number];

export function isPurpose(value: string): value is Purpose {
  return (PURPOSES as readonly string[]).includes(value);
}
