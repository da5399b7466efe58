import { HttpStatus, INestApplicationContext, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';

export interface ServedRoute {
  /** `get /api/v1/findings/{id}` (the OpenAPI spelling). */
  operation: string;
  /** The success status the route answers with (`@HttpCode`, else 201 for POST, else 200). */
  status: number;
}

/** Every controller route with the success status Nest gives it. */
export function servedRoutes(app: INestApplicationContext): ServedRoute[] {
  const routes: ServedRoute[] = [];
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
        const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`
          .replace(/\/+/g, '/')
          .replace(/:(\w+)/g, '{$1}');
        const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
        const status = code ?? (method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
        routes.push({ operation: `${RequestMethod[method].toLowerCase()} ${path}`, status });
      }
    }
  }
  return routes;
}
