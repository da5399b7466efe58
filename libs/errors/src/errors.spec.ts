import { BadRequestException, NotFoundException } from '@nestjs/common';
import { validate, IsInt, Min, ValidateNested, IsString } from 'class-validator';
import { Type } from 'class-transformer';
import {
  classifyError,
  DomainError,
  ErrorStatusMap,
  flattenValidationErrors,
  validationExceptionFactory,
} from './index';

class WidgetError extends DomainError {
  constructor(code: 'widget_missing' | 'widget_locked') {
    super(code, `widget error ${code}`);
  }
}

class Inner {
  @IsString() name!: string;
}
class Outer {
  @IsInt() @Min(1) count!: number;
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

describe('errors lib', () => {
  it('maps codes to statuses with a fallback', () => {
    const map = new ErrorStatusMap({ widget_missing: 404 }, 422);
    expect(map.statusOf('widget_missing')).toBe(404);
    expect(map.statusOf('other')).toBe(422);
  });

  it('classifies domain, http and unknown errors', () => {
    const domain = classifyError(new WidgetError('widget_locked'));
    expect(domain.kind).toBe('domain');
    expect(classifyError(new NotFoundException())).toMatchObject({
      kind: 'http',
      status: 404,
      code: 'not_found',
    });
    expect(classifyError({ statusCode: 413, message: 'too big' })).toMatchObject({
      kind: 'http',
      status: 413,
    });
    const unknown = classifyError(new TypeError('boom'));
    expect(unknown.kind).toBe('unknown');
    if (unknown.kind === 'unknown') expect(unknown.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(classifyError(new BadRequestException('x'))).toMatchObject({ status: 400 });
  });

  it('flattens nested validation errors into field paths', async () => {
    const input = Object.assign(new Outer(), {
      count: 0,
      inner: Object.assign(new Inner(), { name: 5 }),
    });
    const errors = await validate(input);
    const fields = flattenValidationErrors(errors)
      .map((f) => f.field)
      .sort();
    expect(fields).toEqual(['count', 'inner.name']);
    expect(validationExceptionFactory(errors).code).toBe('validation_failed');
  });
});
