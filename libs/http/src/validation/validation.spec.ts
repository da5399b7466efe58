import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsString, validateSync } from 'class-validator';
import { OptionalNotNull } from './optional-not-null';
import { QueryDateTime } from './query-date-time';
import { QueryInt } from './query-int';

class PageQuery {
  @QueryInt({ min: 1, max: 100_000 }) page?: number;
  @QueryInt({ min: 0, max: Number.MAX_SAFE_INTEGER }) after?: number;
  @QueryDateTime() since?: Date;
}

class ProductPatch {
  @OptionalNotNull() @IsString() name?: string;
  @OptionalNotNull() @IsBoolean() scan_enabled?: boolean;
}

function problems<T extends object>(type: new () => T, plain: object): Record<string, string[]> {
  const instance = plainToInstance(type, plain);
  const out: Record<string, string[]> = {};
  for (const e of validateSync(instance, { whitelist: true, forbidNonWhitelisted: true })) {
    out[e.property] = Object.values(e.constraints ?? {}).sort();
  }
  return out;
}

describe('QueryInt', () => {
  it('turns plain decimal integers into numbers within the bounds', () => {
    expect(problems(PageQuery, { page: '1', after: '9007199254740991' })).toEqual({});
    expect(plainToInstance(PageQuery, { page: '0042' }).page).toBe(42);
    expect(problems(PageQuery, {})).toEqual({});
  });

  it.each([
    '1e20',
    '99999999999999999999',
    '1.5',
    '-1',
    '0',
    '100001',
    '0x10',
    ' 5',
    '+5',
    '',
    'NaN',
    'Infinity',
  ])('refuses page=%j naming the field', (page) => {
    expect(problems(PageQuery, { page })).toEqual({
      page: ['page must be a whole number from 1 to 100000'],
    });
  });

  it('refuses a repeated parameter and an id beyond the safe integers', () => {
    expect(Object.keys(problems(PageQuery, { page: ['1', '2'] }))).toEqual(['page']);
    expect(Object.keys(problems(PageQuery, { after: '9007199254740993' }))).toEqual(['after']);
  });
});

describe('QueryDateTime', () => {
  it('takes ISO 8601 date-times of four-digit years as Dates', () => {
    const query = plainToInstance(PageQuery, { since: '2024-05-01T10:00:00Z' });
    expect(query.since).toEqual(new Date('2024-05-01T10:00:00Z'));
    expect(problems(PageQuery, { since: '2024-05-01' })).toEqual({});
  });

  it.each(['-200000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2024-02-30', '1e20', 'now'])(
    'refuses since=%j',
    (since) => {
      expect(problems(PageQuery, { since })).toEqual({
        since: ['since must be an ISO 8601 date-time'],
      });
    },
  );
});

describe('OptionalNotNull', () => {
  it('skips an absent field, validates a present one and refuses null', () => {
    expect(problems(ProductPatch, {})).toEqual({});
    expect(problems(ProductPatch, { name: 'a', scan_enabled: false })).toEqual({});
    expect(problems(ProductPatch, { name: null, scan_enabled: null })).toEqual({
      name: ['name must be a string', 'name must not be null'],
      scan_enabled: ['scan_enabled must be a boolean value', 'scan_enabled must not be null'],
    });
  });
});
