import { isPrincipalName } from '../../app/domain/principal-name';

/**
 * SSH key binding to a person (the specification's three steps):
 * - `off`: do not check (default);
 * - `record`: check and record the verdict on the key, never refuse;
 * - `enforce`: reject the key when the check finds a contradiction or cannot be made.
 */
export const SSH_KEY_BINDING_STEPS = ['off', 'record', 'enforce'] as const;
export type SshKeyBindingStep = (typeof SSH_KEY_BINDING_STEPS)[number];

export interface SshKeyPolicy {
  binding: SshKeyBindingStep;
  /**
   * Auto-approval of registered keys (off by default). When on, a key registered by any device
   * with a valid enrollment token becomes active at once and is served for every login in
   * `autoApprovePrincipals`, whoever owns the device.
   */
  autoApprove: boolean;
  autoApprovePrincipals: string[];
}

export const DEFAULT_SSH_KEY_POLICY: SshKeyPolicy = {
  binding: 'off',
  autoApprove: false,
  autoApprovePrincipals: [],
};

export function sshKeyPolicyFromJson(value: Record<string, unknown> | undefined): SshKeyPolicy {
  if (!value) return DEFAULT_SSH_KEY_POLICY;
  // An unreadable stored value must not loosen anything: strictest step, auto-approval off.
  const binding = SSH_KEY_BINDING_STEPS.find((s) => s === value.binding) ?? 'enforce';
  const principals = Array.isArray(value.auto_approve_principals)
    ? value.auto_approve_principals.filter(
        (p): p is string => typeof p === 'string' && isPrincipalName(p),
      )
    : [];
  return { binding, autoApprove: value.auto_approve === true, autoApprovePrincipals: principals };
}

export function sshKeyPolicyToJson(policy: SshKeyPolicy): Record<string, unknown> {
  return {
    binding: policy.binding,
    auto_approve: policy.autoApprove,
    auto_approve_principals: policy.autoApprovePrincipals,
  };
}
