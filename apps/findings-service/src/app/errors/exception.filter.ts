import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { classifyError, ErrorStatusMap, InputValidationError } from '@platform/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateLocale } from './accept-language';
import { localizedFields } from './field-problems';
import { ERROR_STATUS, ErrorCode } from './error-codes';
import { ERROR_MESSAGES } from './error-messages';
import { ErrorBodyDto, type FieldProblemDto } from './error-body';

const STATUS_MAP = new ErrorStatusMap(ERROR_STATUS, 400);

function isKnownCode(code: string): code is ErrorCode {
  return STATUS_MAP.has(code);
}

/** Replaces `{name}` in a catalog message with the error's detail of that name. */
function fillPlaceholders(message: string, details: Record<string, unknown> | undefined): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = details?.[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : whole;
  });
}

/** `details.fields` of a domain error: problems per field, as the envelope's `fields`. */
function isFieldProblems(value: unknown): value is FieldProblemDto[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        typeof (item as FieldProblemDto | null)?.field === 'string' &&
        Array.isArray((item as FieldProblemDto).problems),
    )
  );
}

/** The one global filter: every error leaves as `{error, code[, fields][, error_id]}`. */
@Catch()
export class FindingsExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const locale = negotiateLocale(request.headers['accept-language']);
    const classified = classifyError(exception);
    let status: number;
    let body: ErrorBodyDto;
    switch (classified.kind) {
      case 'domain': {
        const { code, details } = classified.error;
        status = STATUS_MAP.statusOf(code);
        const error = isKnownCode(code)
          ? fillPlaceholders(ERROR_MESSAGES[code][locale], details)
          : classified.error.message;
        body = { error, code };
        if (classified.error instanceof InputValidationError) body.fields = classified.error.fields;
        else if (isFieldProblems(details?.['fields'])) body.fields = details['fields'];
        // validation_failed: each problem as a reason in the request's language, with its code.
        if (code === 'validation_failed' && body.fields) {
          body.fields = localizedFields(body.fields, locale);
        }
        if (typeof details?.['position'] === 'number') body.position = details['position'];
        if (typeof details?.['problem'] === 'string') body.problem = details['problem'];
        // details.reason: the cause's stable code (already part of the message where it has one).
        const reason = details?.['reason'];
        if (typeof reason === 'string' && /^[a-z0-9_.-]{1,64}$/.test(reason)) {
          body.details = { reason };
        }
        const retryAfter = details?.['retryAfterSeconds'];
        if (typeof retryAfter === 'number') void reply.header('Retry-After', String(retryAfter));
        break;
      }
      case 'http': {
        status = classified.status;
        const code = classified.code;
        const error = isKnownCode(code) ? ERROR_MESSAGES[code][locale] : classified.message;
        body = { error, code };
        break;
      }
      case 'unknown': {
        status = 500;
        const err = classified.error;
        this.logger.error(
          { err, error_id: classified.errorId },
          `unhandled error ${classified.errorId}`,
        );
        body = {
          error: ERROR_MESSAGES.internal_error[locale],
          code: 'internal_error',
          error_id: classified.errorId,
        };
        break;
      }
    }
    void reply.status(status).header('content-language', locale).send(body);
  }
}
