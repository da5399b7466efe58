import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';

export const API_PREFIX = 'api/v1';

/** Wraps success bodies under `/api/v1` as `{"data": ...}`; empty bodies (204) stay empty. */
@Injectable()
export class DataEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const url = context.switchToHttp().getRequest<FastifyRequest>().url;
    if (!url.startsWith(`/${API_PREFIX}/`)) return next.handle();
    return next.handle().pipe(map((body: unknown) => (body === undefined ? body : { data: body })));
  }
}
