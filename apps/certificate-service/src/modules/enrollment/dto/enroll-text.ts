import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// eslint-disable-next-line no-control-regex
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/** A string of 1..max characters without control characters (agent-reported text). */
export function EnrollText(max: number): PropertyDecorator {
  return applyDecorators(
    IsString(),
    MinLength(1),
    MaxLength(max),
    Matches(ONE_LINE, { message: '$property must not contain control characters' }),
  );
}

/** Like `EnrollText`, but line breaks and tabs are allowed (free-text notes). */
export function EnrollNote(max: number): PropertyDecorator {
  return applyDecorators(
    IsString(),
    MaxLength(max),
    Matches(MULTI_LINE, {
      message: '$property must not contain control characters other than line breaks and tabs',
    }),
  );
}
