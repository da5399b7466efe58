import { isObject, optionalLine, optionalObject, optionalString } from './json-shape';
import { JsonRecord } from './json-value';
import { ResultWarningCode } from './result-warnings';

function rangeProblem(range: unknown): ResultWarningCode | undefined {
  if (!optionalObject(range)) return 'result_location_invalid';
  if (!isObject(range)) return undefined;
  return optionalLine(range.startLine) && optionalLine(range.endLine)
    ? undefined
    : 'result_region_invalid';
}

function genericProblem(primary: JsonRecord): ResultWarningCode | undefined {
  if (!optionalString(primary.filePath)) return 'result_location_invalid';
  if (!optionalString(primary.message)) return 'result_message_invalid';
  return rangeProblem(primary.textRange);
}

/**
 * Why an element of `issues[]` / `hotspots[]` cannot be stored, if it cannot: the members
 * normalization reads must have their Web API / generic import types; line numbers positive
 * integers that fit `integer` columns.
 */
export function sonarRecordProblem(value: unknown): ResultWarningCode | undefined {
  if (!isObject(value)) return 'result_not_object';
  if (!optionalObject(value.primaryLocation)) return 'result_location_invalid';
  if (isObject(value.primaryLocation)) return genericProblem(value.primaryLocation);
  if (!optionalString(value.component)) return 'result_location_invalid';
  if (!optionalString(value.message)) return 'result_message_invalid';
  if (!optionalLine(value.line)) return 'result_region_invalid';
  return rangeProblem(value.textRange);
}
