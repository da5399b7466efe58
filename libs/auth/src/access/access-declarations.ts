import {
  applyDecorators,
  type ExecutionContext,
  type INestApplicationContext,
  RequestMethod,
  SetMetadata,
} from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';

/** One controller route with the access rule it declares (undefined: none). */
export interface DeclaredRoute<Rule> {
  method: string;
  controller: string;
  handler: string;
  path: string;
  rule: Rule | undefined;
}

/**
 * The shape both services give their access decorators: every route declares one rule
 * (method or controller level) under one metadata key, the global guard reads it back, and
 * a route without a rule is refused. The rules themselves (roles, permissions) are the
 * service's own.
 */
export class AccessDeclarations<Rule extends object> {
  constructor(readonly metadataKey: string) {}

  /** A decorator declaring `rule`, plus any OpenAPI security decorators that go with it. */
  declare(
    rule: Rule,
    ...alongside: Array<MethodDecorator & ClassDecorator>
  ): MethodDecorator & ClassDecorator {
    return applyDecorators(SetMetadata(this.metadataKey, rule), ...alongside);
  }

  /** The rule of the route being handled (the method's wins over the controller's). */
  ruleOf(reflector: Reflector, context: ExecutionContext): Rule | undefined {
    return reflector.getAllAndOverride<Rule | undefined>(this.metadataKey, [
      context.getHandler(),
      context.getClass(),
    ]);
  }

  /** Every controller route of the application with its declared rule. */
  routes(app: INestApplicationContext): DeclaredRoute<Rule>[] {
    const reflector = new Reflector();
    const scanner = new MetadataScanner();
    const routes: DeclaredRoute<Rule>[] = [];
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
            rule: reflector.getAllAndOverride<Rule | undefined>(this.metadataKey, [
              handler,
              controller,
            ]),
          });
        }
      }
    }
    return routes;
  }

  /** Fails the boot when a route declares no rule (the guard would refuse it anyway). */
  assertEveryRouteDeclared(app: INestApplicationContext): void {
    const missing = this.routes(app).filter((r) => r.rule === undefined);
    if (missing.length > 0) {
      const names = missing.map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`);
      throw new Error(`routes without an access declaration: ${names.join(', ')}`);
    }
  }
}
