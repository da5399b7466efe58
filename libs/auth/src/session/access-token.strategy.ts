import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
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
 *
 * The secret goes to jsonwebtoken as a `KeyObject` made once: given a string, jsonwebtoken
 * first tries it as a PEM public key on every request (an OpenSSL parse that fails and throws)
 * before making a secret key of it — about a quarter of the CPU of a trivial request (issue 34,
 * docs/benchmarks.md#per-request-cost).
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, ACCESS_TOKEN_STRATEGY) {
  constructor(@Inject(ACCESS_TOKEN_POLICY) policy: AccessTokenPolicy) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // jsonwebtoken takes a KeyObject as is; passport-jwt's types only name string | Buffer.
      secretOrKey: createSecretKey(Buffer.from(policy.secret)) as unknown as Buffer,
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
