import { DomainError } from '@platform/errors';

/**
 * A request body refused before validation. `bad_request` (400): not UTF-8, not JSON, or a
 * prototype key; `body_too_deep` (400): nested deeper than the bound; `body_too_wide` (400): an
 * object or array with more members than the bound; `unsupported_media_type`
 * (415): a media type the route does not take. Each service's filter maps the code to its
 * own envelope.
 */
export type RequestBodyErrorCode =
  'bad_request' | 'body_too_deep' | 'body_too_wide' | 'unsupported_media_type';

export class RequestBodyError extends DomainError {
  declare readonly code: RequestBodyErrorCode;

  constructor(code: RequestBodyErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }

  static malformed(problem: string): RequestBodyError {
    return new RequestBodyError('bad_request', `request body ${problem}`, { problem });
  }

  static tooDeep(maxDepth: number): RequestBodyError {
    return new RequestBodyError(
      'body_too_deep',
      `request body is nested deeper than ${maxDepth} levels`,
      { max_depth: maxDepth },
    );
  }

  static tooWide(maxMembers: number): RequestBodyError {
    return new RequestBodyError(
      'body_too_wide',
      `an object or array in the request body has more than ${maxMembers} members`,
      { max_members: maxMembers },
    );
  }

  static unsupportedMediaType(): RequestBodyError {
    return new RequestBodyError('unsupported_media_type', 'request body must be application/json');
  }
}
