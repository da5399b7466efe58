import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { TOKEN_CLOCK_SKEW_SECONDS } from '../token-time-claims';
import {
  ACCESS_TOKEN_ALGORITHM,
  ACCESS_TOKEN_POLICY,
  accessTokenSubject,
  type AccessTokenClaims,
  type AccessTokenPolicy,
} from './access-token-policy';

export const ACCESS_TOKEN_STRATEGY = 'platform-access-token';

/** What the strategy hands to the guard for a valid token. */
export interface AccessTokenHolder {
  subject: string;
}

/**
 * passport-jwt over `Authorization: Bearer`: HS256 only, the policy's issuer and audience,
 * then `typ` and the shared time rule (`accessTokenSubject`).
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, ACCESS_TOKEN_STRATEGY) {
  constructor(@Inject(ACCESS_TOKEN_POLICY) policy: AccessTokenPolicy) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: policy.secret,
      algorithms: [ACCESS_TOKEN_ALGORITHM],
      issuer: policy.issuer,
      audience: policy.audience,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: TOKEN_CLOCK_SKEW_SECONDS },
    });
  }

  validate(claims: AccessTokenClaims): AccessTokenHolder | false {
    const subject = accessTokenSubject(claims);
    return subject === null ? false : { subject };
  }
}
