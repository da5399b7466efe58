import {
  applyDecorators,
  Get,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';

/**
 * Sets the CSV headers only once the handler has produced the whole document, so a
 * validation or query failure still answers in the JSON error envelope (never a CSV
 * attachment, never a broken 200).
 */
@Injectable()
class CsvAttachment implements NestInterceptor<string, string> {
  constructor(private readonly filename: string) {}

  intercept(context: ExecutionContext, next: CallHandler<string>): Observable<string> {
    return next.handle().pipe(
      map((document) => {
        void context
          .switchToHttp()
          .getResponse<FastifyReply>()
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${this.filename}"`);
        return document;
      }),
    );
  }
}

/** `GET <filename>` answering a CSV attachment built in full by the handler. */
export function CsvExport(filename: string, description: string): MethodDecorator {
  return applyDecorators(
    Get(filename),
    UseInterceptors(new CsvAttachment(filename)),
    ApiProduces('text/csv'),
    ApiOkResponse({ description, schema: { type: 'string' } }),
  );
}
