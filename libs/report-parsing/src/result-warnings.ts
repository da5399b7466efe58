/**
 * Why a result was skipped instead of stored (the report's `warnings`, counted per code). A
 * result is skipped when a member the reader uses has a type or value outside its format's
 * definition: storing it would invent a severity, a location or an identity.
 */
export const RESULT_WARNING_CODES = [
  'result_not_object',
  'result_level_invalid',
  'result_kind_invalid',
  'result_baseline_state_invalid',
  'result_rule_invalid',
  'result_message_invalid',
  'result_location_invalid',
  'result_region_invalid',
  'result_network_invalid',
  'result_properties_invalid',
] as const;
export type ResultWarningCode = (typeof RESULT_WARNING_CODES)[number];

/** Skipped results per code (codes with no skipped result are absent). */
export type ResultWarnings = Partial<Record<ResultWarningCode, number>>;

export function isResultWarningCode(value: string): value is ResultWarningCode {
  return (RESULT_WARNING_CODES as readonly string[]).includes(value);
}

/** Adds `add`'s counts into `into`. */
export function addWarnings(into: ResultWarnings, add: ResultWarnings): void {
  for (const code of Object.keys(add) as ResultWarningCode[]) {
    into[code] = (into[code] ?? 0) + (add[code] ?? 0);
  }
}
