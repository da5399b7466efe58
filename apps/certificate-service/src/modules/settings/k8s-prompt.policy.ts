import { K8S_PROMPT_STEPS, type K8sPromptStep } from '../../app/config/certsvc-config';

/**
 * Prompt-on-issuance step for cluster access (system settings `k8s_prompt_step`, stored under
 * `policy_settings` key `k8s`): `off`, `ask_once_per_window` (the specification's default),
 * `ask_every_time`, `raised` (refused when no session can ask). Until an administrator sets it,
 * `CERTSVC_K8S_PROMPT_STEP` (deployment default) applies.
 */
export interface K8sPromptPolicy {
  promptStep: K8sPromptStep;
}

/** The stored policy, or the deployment default when none is stored. */
export function k8sPromptPolicyFromJson(
  value: Record<string, unknown> | null | undefined,
  deploymentDefault: K8sPromptStep,
): K8sPromptPolicy {
  if (!value) return { promptStep: deploymentDefault };
  // An unreadable stored value must not loosen anything: the strictest step.
  return { promptStep: K8S_PROMPT_STEPS.find((s) => s === value.prompt_step) ?? 'raised' };
}

export function k8sPromptPolicyToJson(policy: K8sPromptPolicy): Record<string, unknown> {
  return { prompt_step: policy.promptStep };
}
