import { INestApplicationContext, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
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
  const routes: UuidRoute[] = [];
  for (const moduleRef of app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
          string,
          RouteArg
        >;
        const uuidParams = Object.entries(args)
          .filter(
            ([key, arg]) =>
              key.startsWith(`${RouteParamtypes.PARAM}:`) && arg.pipes?.includes(UUID_SEGMENT),
          )
          .map(([, arg]) => String(arg.data));
        if (uuidParams.length === 0) continue;
        const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`;
        routes.push({ method: RequestMethod[method], path, uuidParams });
      }
    }
  }
  return routes;
}
