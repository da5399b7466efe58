import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ACCESS_POLICY, type AccessPolicy } from '../../src/app/access/access.decorators';
import type { TestApp } from './test-app';

export interface DeclaredRoute {
  route: string;
  policy: AccessPolicy | undefined;
}

type Handler = (...args: unknown[]) => unknown;

/** Every HTTP route of the app's controllers with its access declaration (method or class). */
export function declaredRoutes(t: TestApp): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as unknown as {
        prototype: Record<string, unknown>;
      } | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name] as Handler;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const method =
          RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const policy = (Reflect.getMetadata(ACCESS_POLICY, handler) ??
          Reflect.getMetadata(ACCESS_POLICY, controller)) as AccessPolicy | undefined;
        const full = `/${[base, path].filter((p) => p && p !== '/').join('/')}`.replace(
          /\/+/g,
          '/',
        );
        routes.push({ route: `${method} ${full}`, policy });
      }
    }
  }
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}
