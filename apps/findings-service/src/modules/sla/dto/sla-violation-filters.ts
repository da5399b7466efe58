import { CommaListChecker, isUuidValue } from '../../../app/http/comma-list-filters';
import { SLA_VIOLATION_KINDS, type SlaViolationKind } from '../sla-violation.entity';
import type { SlaViolationFilters } from '../sla-violation-view';
import type { ListSlaViolationsQueryDto } from './sla-violation.dto';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
const isSeverity = (v: string): v is string => SEVERITIES.includes(v);
const isKind = (v: string): v is SlaViolationKind =>
  (SLA_VIOLATION_KINDS as readonly string[]).includes(v);

/** Splits and checks the comma lists (400 `validation_failed` naming the field). */
export function toViolationFilters(dto: ListSlaViolationsQueryDto): SlaViolationFilters {
  const lists = new CommaListChecker();
  const filters: SlaViolationFilters = {
    projectIds: lists.check('project_id', dto.project_id, isUuidValue, 'not a UUID'),
    productIds: lists.check('product_id', dto.product_id, isUuidValue, 'not a UUID'),
    severities: lists.check(
      'severity',
      dto.severity?.toUpperCase(),
      isSeverity,
      `expected ${SEVERITIES.join('|')}`,
    ),
    kinds: lists.check(
      'kind',
      dto.kind?.toLowerCase(),
      isKind,
      `expected ${SLA_VIOLATION_KINDS.join('|')}`,
    ),
    state: dto.state ?? 'open',
  };
  lists.done();
  return filters;
}
