import { Controller, ExecutionContext, Get, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Public } from '../../../app/access/access.decorators';
import { certsvcErrorStatuses } from '../../../app/errors/error-status';
import { AccessGuard } from './access.guard';
import type { Authenticator } from './authenticator';

@Controller()
class Sample {
  @Get() @Public() open(): string {
    return 'open';
  }
  @Get() undeclared(): string {
    return 'undeclared';
  }
}

function contextFor(handler: keyof Sample): ExecutionContext {
  return {
    getHandler: () => Sample.prototype[handler],
    getClass: () => Sample,
    switchToHttp: () => ({ getRequest: () => ({}) }),
  } as unknown as ExecutionContext;
}

// The app refuses to start with an undeclared route, so only a unit test reaches this guard line.
describe('AccessGuard', () => {
  const authenticator = { authenticate: jest.fn() };
  const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  afterAll(() => logged.mockRestore());
  const guard = new AccessGuard(new Reflector(), authenticator as unknown as Authenticator);

  it('refuses a route without an access declaration with 403 route_not_declared (fails closed)', async () => {
    const refusal = guard.canActivate(contextFor('undeclared'));
    await expect(refusal).rejects.toMatchObject({ code: 'route_not_declared' });
    expect(certsvcErrorStatuses.statusOf('route_not_declared')).toBe(403);
    expect(authenticator.authenticate).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledWith(
      { handler: 'Sample.undeclared' },
      'route without access declaration refused',
    );
  });

  it('lets public routes through without authenticating', async () => {
    await expect(guard.canActivate(contextFor('open'))).resolves.toBe(true);
    expect(authenticator.authenticate).not.toHaveBeenCalled();
  });
});
