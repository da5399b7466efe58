import { RequestMethod } from '@nestjs/common';
import { controllerRoutes } from '@platform/testing';
import { ACCESS_POLICY, type AccessPolicy } from '../../src/app/access/access.decorators';
import type { TestApp } from './test-app';

export interface DeclaredRoute {
  route: string;
  policy: AccessPolicy | undefined;
}

/** Every HTTP route of the app's controllers with its access declaration (method or class). */
export function declaredRoutes(t: TestApp): DeclaredRoute[] {
  return controllerRoutes(t.app)
    .map((r) => ({
      route: `${RequestMethod[r.method]} ${r.path}`,
      policy: (Reflect.getMetadata(ACCESS_POLICY, r.handler) ??
        Reflect.getMetadata(ACCESS_POLICY, r.controller)) as AccessPolicy | undefined,
    }))
    .sort((a, b) => a.route.localeCompare(b.route));
}
