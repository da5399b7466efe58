/** The ten finding states (spec "States and transitions"). */
export const FINDING_STATUSES = [
  'new',
  'renewed',
  'needs_review',
  'in_progress',
  'confirmed',
  'waiting',
  'risk_accepted',
  'wont_fix',
  'false_positive',
  'fixed',
] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

/** The states a person may set (PATCH, bulk): all but `renewed`, which only a report sets. */
export const SETTABLE_STATUSES = FINDING_STATUSES.filter((s) => s !== 'renewed');

/** Status groups (spec "States and transitions"): `open` is attention plus accepted/won't fix. */
export const FINDING_STATUS_GROUPS = {
  attention: ['new', 'renewed', 'needs_review', 'in_progress', 'confirmed', 'waiting'],
  open: [
    'new',
    'renewed',
    'needs_review',
    'in_progress',
    'confirmed',
    'waiting',
    'risk_accepted',
    'wont_fix',
  ],
  closed: ['false_positive', 'fixed'],
} as const satisfies Record<string, readonly FindingStatus[]>;
export type FindingStatusGroup = keyof typeof FINDING_STATUS_GROUPS;
export const FINDING_STATUS_GROUP_NAMES = Object.keys(
  FINDING_STATUS_GROUPS,
) as FindingStatusGroup[];

export function isFindingStatus(value: string): value is FindingStatus {
  return (FINDING_STATUSES as readonly string[]).includes(value);
}
