import { HttpStatus, INestApplicationContext, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { controllerRoutes, openApiOperationOf } from './controller-routes';

export interface ServedRoute {
  /** `get /api/v1/findings/{id}` (the OpenAPI spelling). */
  operation: string;
  /** The success status the route answers with (`@HttpCode`, else 201 for POST, else 200). */
  status: number;
}

/** Every controller route with the success status Nest gives it. */
export function servedRoutes(app: INestApplicationContext): ServedRoute[] {
  return controllerRoutes(app).map((route) => {
    const code = Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined;
    const status =
      code ?? (route.method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
    return { operation: openApiOperationOf(route), status };
  });
}
