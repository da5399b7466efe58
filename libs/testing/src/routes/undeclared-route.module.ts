import { Controller, Get, Module, type Type } from '@nestjs/common';

/**
 * A module whose one route (`GET <path>`, handler `UndeclaredController.open`) declares no
 * access: mounted into a service, it must stop the service from starting.
 */
export function undeclaredRouteModule(path = 'api/v1/undeclared'): Type<unknown> {
  @Controller(path)
  class UndeclaredController {
    @Get()
    open(): string {
      return 'should never be served';
    }
  }
  @Module({ controllers: [UndeclaredController] })
  class UndeclaredRouteModule {}
  return UndeclaredRouteModule;
}
