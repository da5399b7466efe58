import { PipeTransform, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { StorableTextPipe } from './storable-text.pipe';

/**
 * The global pipes of an API, in order: unstorable text refused, then DTO validation (unknown
 * fields refused, values transformed to the DTO types). Register them in this order.
 */
export function inputPipes(
  exceptionFactory: NonNullable<ValidationPipeOptions['exceptionFactory']>,
): PipeTransform[] {
  return [
    new StorableTextPipe(),
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory,
    }),
  ];
}
