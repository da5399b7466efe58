import { InputValidationError } from '@platform/errors';
import { isUUID } from 'class-validator';
import { SLA_VIOLATION_KINDS, type SlaViolationKind } from '../sla-violation.entity';
import type { SlaViolationFilters } from '../sla-violation-view';
import type { ListSlaViolationsQueryDto } from './sla-violation.dto';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
const MAX_LIST_VALUES = 100;

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = [
    ...new Set(
      value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0),
    ),
  ];
  return items.length > 0 ? items : undefined;
}

/** Splits and checks the comma lists (400 `validation_failed` naming the field). */
export function toViolationFilters(dto: ListSlaViolationsQueryDto): SlaViolationFilters {
  const problems: { field: string; problems: string[] }[] = [];
  const check = (field: string, values: string[] | undefined, ok: (v: string) => boolean) => {
    if (!values) return undefined;
    const bad = values.filter((v) => !ok(v));
    if (values.length > MAX_LIST_VALUES) problems.push({ field, problems: ['at most 100 values'] });
    else if (bad.length > 0) problems.push({ field, problems: [`invalid: ${bad.join(', ')}`] });
    return values;
  };
  const uuid = (v: string): boolean => isUUID(v, 'loose');
  const filters: SlaViolationFilters = {
    projectIds: check('project_id', list(dto.project_id), uuid),
    productIds: check('product_id', list(dto.product_id), uuid),
    severities: check('severity', list(dto.severity?.toUpperCase()), (v) => SEVERITIES.includes(v)),
    kinds: check('kind', list(dto.kind?.toLowerCase()), (v) =>
      (SLA_VIOLATION_KINDS as readonly string[]).includes(v),
    ) as SlaViolationKind[] | undefined,
    state: dto.state ?? 'open',
  };
  if (problems.length > 0) throw new InputValidationError(problems);
  return filters;
}
