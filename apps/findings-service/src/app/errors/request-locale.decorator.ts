import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { negotiateLocale } from './accept-language';
import type { Locale } from './error-messages';

/**
 * The caller's locale from its `Accept-Language` header (negotiateLocale: English by default).
 * A custom parameter decorator, not `@Headers('accept-language')`: Nest's OpenAPI plugin turns
 * a `@Headers(name)` parameter into a second, required, lower-case header parameter beside the
 * route's documented optional `@ApiHeader({ name: 'Accept-Language' })`.
 */
export const RequestLocale = createParamDecorator((_data: unknown, ctx: ExecutionContext): Locale =>
  negotiateLocale(
    ctx.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>()
      .headers['accept-language'],
  ),
);
