import { INestApplicationContext } from '@nestjs/common';
import type { DeclaredRoute } from '@platform/auth';
import { AccessRule, FINDINGS_ACCESS } from './access.decorators';

export type RouteAccess = DeclaredRoute<AccessRule>;

/** Every controller route of the application with its access declaration (or undefined). */
export function listRouteAccess(app: INestApplicationContext): RouteAccess[] {
  return FINDINGS_ACCESS.routes(app);
}
