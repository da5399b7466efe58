import { ApiPropertyOptional } from '@nestjs/swagger';
import { InputValidationError } from '@platform/errors';
import { OptionalNotNull } from '@platform/http';
import { IsString, isUUID, MaxLength } from 'class-validator';

/** At most this many values in one comma-list query parameter. */
export const MAX_LIST_VALUES = 100;

/** The distinct, trimmed, non-empty items of a comma list; undefined when there are none. */
export function commaList(value: string | undefined): string[] | undefined {
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

export const isUuidValue = (v: string): v is string => isUUID(v, 'loose');

/**
 * Checks the comma-list query parameters of one request and collects every problem, so one
 * 400 `validation_failed` names all the fields that are wrong (`done()` throws it).
 */
export class CommaListChecker {
  private readonly problems: { field: string; problems: string[] }[] = [];

  /** The valid values of `value`'s list (undefined when absent); each bad one is a problem. */
  check<T extends string>(
    field: string,
    value: string | undefined,
    valid: (v: string) => v is T,
    hint: string,
  ): T[] | undefined {
    const values = commaList(value);
    if (!values) return undefined;
    if (values.length > MAX_LIST_VALUES) {
      this.problems.push({ field, problems: [`at most ${MAX_LIST_VALUES} values`] });
    }
    const bad = values.filter((v) => !valid(v));
    if (bad.length > 0) this.problems.push({ field, problems: [`${bad.join(', ')}: ${hint}`] });
    return values.filter(valid);
  }

  /** Throws the collected problems (400 `validation_failed`), if any. */
  done(): void {
    if (this.problems.length > 0) throw new InputValidationError(this.problems);
  }
}

/** The scope filters shared by the SLA violation list and the dashboards (comma lists). */
export class ScopeFiltersDto {
  @ApiPropertyOptional({ description: 'Comma list of project ids' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  project_id?: string;

  @ApiPropertyOptional({ description: 'Comma list of product ids' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  product_id?: string;

  @ApiPropertyOptional({
    description: 'Comma list of CRITICAL, HIGH, MEDIUM, LOW, INFO (any case)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  severity?: string;
}
