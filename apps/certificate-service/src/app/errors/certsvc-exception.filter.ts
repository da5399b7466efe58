import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyError, InputValidationError } from '@platform/errors';
import { RequestBodyError } from '@platform/http';
import { loggableError } from '@platform/logging';
import { requestContextOf } from '../request-context/request-context.hooks';
import { InvalidRequestError } from './certsvc-error';
import { certsvcErrorStatuses } from './error-status';

export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

interface Answer {
  status: number;
  body: ErrorBody;
  retryAfterSeconds?: number;
}

/** A body refused before validation: 415 keeps its code, every other refusal is `invalid_request`. */
function requestBodyAnswer(error: RequestBodyError): Answer {
  if (error.code === 'unsupported_media_type') {
    return { status: 415, body: { code: error.code, message: error.message } };
  }
  return { status: 400, body: { code: 'invalid_request', message: error.message } };
}

/**
 * The service's only exception filter: domain errors by their code, framework errors by
 * their status, anything else as a generic 500 after logging `panic recovered`.
 */
@Catch()
export class CertsvcExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const answer = this.answerFor(exception, request);
    requestContextOf(request)?.errors.push(answer.body.code);
    if (answer.retryAfterSeconds !== undefined) {
      void reply.header('retry-after', String(answer.retryAfterSeconds));
    }
    void reply.code(answer.status).send(answer.body);
  }

  private answerFor(exception: unknown, request: FastifyRequest): Answer {
    const classified = classifyError(exception);
    switch (classified.kind) {
      case 'domain': {
        const error = classified.error;
        if (error instanceof InvalidRequestError || error instanceof InputValidationError) {
          return {
            status: 400,
            body: { code: 'invalid_request', message: error.message, details: error.fields },
          };
        }
        if (error instanceof RequestBodyError) return requestBodyAnswer(error);
        const retry = error.details?.retryAfterSeconds;
        return {
          status: certsvcErrorStatuses.statusOf(error.code),
          body: { code: error.code, message: error.message },
          retryAfterSeconds: typeof retry === 'number' ? retry : undefined,
        };
      }
      case 'http': {
        const code = classified.status === 400 ? 'invalid_request' : classified.code;
        if (classified.status >= 500) return this.panic(exception, request, classified.message);
        return { status: classified.status, body: { code, message: classified.message } };
      }
      case 'unknown':
        return this.panic(exception, request, undefined, classified.errorId);
    }
  }

  private panic(error: unknown, request: FastifyRequest, note?: string, errorId?: string): Answer {
    const logged = loggableError(error);
    this.logger.error(
      {
        method: request.method,
        path: request.url.split('?')[0],
        error: error instanceof Error ? logged.message : (note ?? logged.message),
        stack: logged.stack,
        sqlstate: logged.sqlstate,
        query_kind: logged.query_kind,
        error_id: errorId,
      },
      'panic recovered',
    );
    return { status: 500, body: { code: 'internal_error', message: 'internal error' } };
  }
}
