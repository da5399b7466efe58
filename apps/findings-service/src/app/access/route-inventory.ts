import { INestApplicationContext, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ACCESS_METADATA, AccessRule } from './access.decorators';

export interface RouteAccess {
  method: string;
  controller: string;
  handler: string;
  path: string;
  rule: AccessRule | undefined;
}

/** Every controller route of the application with its access declaration (or undefined). */
export function listRouteAccess(app: INestApplicationContext): RouteAccess[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const routes: RouteAccess[] = [];
  for (const moduleRef of app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        routes.push({
          method: RequestMethod[method],
          controller: controller.name,
          handler: name,
          path: `${base}/${String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')}`,
          rule: reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_METADATA, [
            handler,
            controller,
          ]),
        });
      }
    }
  }
  return routes;
}

/** Fails the boot when a route lacks an access declaration (the guard would refuse it anyway). */
export function assertEveryRouteDeclaresAccess(app: INestApplicationContext): void {
  const missing = listRouteAccess(app).filter((r) => r.rule === undefined);
  if (missing.length > 0) {
    const names = missing.map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
    throw new Error(`routes without an access declaration: ${names.join(', ')}`);
  }
}
