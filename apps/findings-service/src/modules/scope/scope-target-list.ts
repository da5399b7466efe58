import {
  createParamDecorator,
  ExecutionContext,
  Injectable,
  PipeTransform,
  ValidationPipe,
} from '@nestjs/common';
import { validationExceptionFactory } from '@platform/errors';
import { StorableTextPipe } from '@platform/http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FilterScopeTargetsDto } from './dto/scope-perimeter.dto';
import { ScopeError } from './scope.errors';

/**
 * The target list of `POST .../scope/filter` in either form: JSON `{"targets": [...]}` (at
 * most 10 000, the JSON edge's widest array) or `text/plain`, one target per line (up to
 * 100 000; blank lines and lines starting with `#` are skipped).
 */
export const TARGET_LIST_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads `text/plain` bodies as UTF-8 text (at most TARGET_LIST_BODY_LIMIT_BYTES). Only routes
 * that declare `@AcceptsBody('text/plain')` get this far: the media-type gate refuses the type
 * everywhere else before the body is read.
 */
export function installTextBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'text/plain',
    { parseAs: 'buffer', bodyLimit: TARGET_LIST_BODY_LIMIT_BYTES },
    (_request, body: Buffer, done) => {
      try {
        done(null, utf8.decode(body));
      } catch {
        done(new ScopeError('scope_filter_body_invalid'), undefined);
      }
    },
  );
}

export function targetLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const target = line.trim();
    if (target !== '' && !target.startsWith('#')) lines.push(target);
  }
  return lines;
}

/**
 * The request body, for a route whose body has two media types (the OpenAPI document takes
 * the route's own description of it instead of a reflected `@Body()` type); use it with
 * ScopeTargetsPipe, which runs the global input checks itself.
 */
export const RawBody = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): unknown =>
    ctx.switchToHttp().getRequest<FastifyRequest>().body,
);

/**
 * The body of the filter route as a list of target strings: storable text checked (400 naming
 * the field), then the JSON form validated as FilterScopeTargetsDto or the text split in lines.
 */
@Injectable()
export class ScopeTargetsPipe implements PipeTransform<unknown, Promise<string[]>> {
  private readonly storable = new StorableTextPipe();
  private readonly validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: validationExceptionFactory,
  });

  async transform(value: unknown): Promise<string[]> {
    this.storable.transform(value, { type: 'body', data: '' });
    if (typeof value === 'string') return targetLines(value);
    const dto = (await this.validation.transform(value, {
      type: 'body',
      metatype: FilterScopeTargetsDto,
    })) as FilterScopeTargetsDto;
    return dto.targets;
  }
}
