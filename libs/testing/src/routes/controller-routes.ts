import { INestApplicationContext, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';

/** One handler of a controller of the running app. */
export interface ControllerRoute {
  controller: new (...args: never[]) => unknown;
  /** The handler's method name on the controller. */
  handlerName: string;
  handler: (...args: unknown[]) => unknown;
  method: RequestMethod;
  /** `/api/v1/findings/:id` (Nest's spelling). */
  path: string;
}

/** Every controller route of the app (probe modules a test mounts included). */
export function controllerRoutes(app: INestApplicationContext): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  for (const moduleRef of app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as ControllerRoute['controller'] | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const proto = controller.prototype as Record<string, unknown>;
      for (const handlerName of Object.getOwnPropertyNames(proto)) {
        const handler = proto[handlerName];
        if (handlerName === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
        routes.push({
          controller,
          handlerName,
          handler: handler as ControllerRoute['handler'],
          method,
          path,
        });
      }
    }
  }
  return routes;
}

/** `get /api/v1/findings/{id}`: a route as its OpenAPI operation is named. */
export function openApiOperationOf(route: ControllerRoute): string {
  // `:id` is `{id}`; a trailing wildcard (`ocsp/*`) is documented by @nestjs/swagger as `{path}`.
  const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');
  return `${RequestMethod[route.method].toLowerCase()} ${path}`;
}
