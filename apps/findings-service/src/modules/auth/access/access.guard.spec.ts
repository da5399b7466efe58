import { Controller, ExecutionContext, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { AccessGuard } from './access.guard';
import { Public } from '../../../app/access/access.decorators';
import { Authenticator } from './authenticator';

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
  const request = {
    raw: { socket: { remoteAddress: '127.0.0.1' } },
    headers: {},
    method: 'GET',
    url: '/x',
    routeOptions: {},
  };
  return {
    getHandler: () => Sample.prototype[handler],
    getClass: () => Sample,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

describe('AccessGuard', () => {
  const rateLimits = {
    clientAddress: () => '127.0.0.1',
    checkAddress: jest.fn(),
    checkIdentity: jest.fn(),
  };
  const authenticator = { authenticate: jest.fn() };
  const guard = new AccessGuard(
    new Reflector(),
    authenticator as unknown as Authenticator,
    rateLimits as unknown as RateLimitService,
  );

  it('refuses a route without an access declaration (fails closed)', async () => {
    await expect(guard.canActivate(contextFor('undeclared'))).rejects.toMatchObject({
      code: 'access_undeclared',
    });
    expect(authenticator.authenticate).not.toHaveBeenCalled();
  });

  it('lets public routes through without authenticating, after the address limit', async () => {
    await expect(guard.canActivate(contextFor('open'))).resolves.toBe(true);
    expect(rateLimits.checkAddress).toHaveBeenCalledWith('127.0.0.1', 'api');
    expect(authenticator.authenticate).not.toHaveBeenCalled();
  });
});
