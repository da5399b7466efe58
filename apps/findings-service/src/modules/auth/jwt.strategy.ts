import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { currentNumericDate, TOKEN_CLOCK_SKEW_SECONDS, tokenTimeViolation } from '@platform/auth';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { AuthError } from './auth.errors';
import {
  ACCESS_TOKEN_TYPE,
  AccessTokenClaims,
  JWT_AUDIENCE,
  JWT_ISSUER,
  JWT_STRATEGY,
} from './jwt-claims';

export interface JwtSubject {
  userId: string;
}

/**
 * Verifies `Authorization: Bearer` access tokens: HS256 only, issuer, audience, typ, and the
 * shared time rule (exp and iat required, nbf when present, with the clock skew).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.jwt.secret,
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: TOKEN_CLOCK_SKEW_SECONDS },
    });
  }

  validate(claims: AccessTokenClaims): JwtSubject {
    if (
      claims.typ !== ACCESS_TOKEN_TYPE ||
      typeof claims.sub !== 'string' ||
      tokenTimeViolation(claims, { nowSeconds: currentNumericDate() }) !== null
    ) {
      throw new AuthError('invalid_token');
    }
    return { userId: claims.sub };
  }
}
