import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ACCESS_TOKEN_STRATEGY, type AccessTokenHolder } from './access-token.strategy';

type RequestWithHolder = { user?: AccessTokenHolder | null };

/**
 * Runs the access-token strategy on a request and tells who holds the token. It never
 * throws for a bad token: each service answers the refusal in its own error envelope.
 */
@Injectable()
export class AccessTokenGuard extends AuthGuard(ACCESS_TOKEN_STRATEGY) {
  override handleRequest<T = AccessTokenHolder>(err: unknown, holder: T | false): T | null {
    return err || !holder ? null : holder;
  }

  /** The verified subject of the request's bearer token, or null. */
  async subjectOf(context: ExecutionContext): Promise<string | null> {
    await this.canActivate(context);
    return context.switchToHttp().getRequest<RequestWithHolder>().user?.subject ?? null;
  }
}
