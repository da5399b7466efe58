import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { AuthError } from './auth.errors';
import { JWT_STRATEGY } from './jwt-claims';
import { JwtSubject } from './jwt.strategy';

/** passport-jwt check used by the AccessGuard; any failure is 401 invalid_token. */
@Injectable()
export class JwtAuthGuard extends AuthGuard(JWT_STRATEGY) {
  override handleRequest<TUser = JwtSubject>(err: unknown, user: TUser | false): TUser {
    if (err || !user) throw new AuthError('invalid_token');
    return user;
  }
}
