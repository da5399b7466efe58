import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorBodyDto } from '../errors/error-body';

/** Documents a success answer wrapped as `{"data": <model>}` (or `{"data": [<model>]}`). */
export function ApiDataResponse(
  model: Type<unknown>,
  options: { status?: number; isArray?: boolean; description?: string } = {},
): MethodDecorator {
  const item = { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: options.isArray ? { type: 'array', items: item } : item },
      },
    }),
  );
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (validation_failed with fields, or a domain code)',
  401: 'No or invalid credentials',
  403: 'Authenticated but not allowed',
  404: 'Not found, or the capability is off',
  409: 'Conflict: the object exists',
  429: 'Rate limit exceeded (Retry-After header)',
};

/** Documents error answers in the service's error envelope. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorBodyDto),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        type: ErrorBodyDto,
      }),
    ),
  );
}
