import { INestApplicationContext, RequestMethod } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { controllerRoutes } from '@platform/testing';
import { UUID_SEGMENT } from '../../src/app/http/uuid-param';

export interface UuidRoute {
  method: string;
  /** `/api/v1/findings/:id` */
  path: string;
  /** Path parameters read with `UuidParam`. */
  uuidParams: string[];
}

interface RouteArg {
  data?: unknown;
  pipes?: unknown[];
}

/** Every route with at least one `UuidParam` path parameter. */
export function uuidRoutes(app: INestApplicationContext): UuidRoute[] {
  return controllerRoutes(app).flatMap((route) => {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handlerName) ??
      {}) as Record<string, RouteArg>;
    const uuidParams = Object.entries(args)
      .filter(
        ([key, arg]) =>
          key.startsWith(`${RouteParamtypes.PARAM}:`) && arg.pipes?.includes(UUID_SEGMENT),
      )
      .map(([, arg]) => String(arg.data));
    if (uuidParams.length === 0) return [];
    return [{ method: RequestMethod[route.method], path: route.path, uuidParams }];
  });
}
