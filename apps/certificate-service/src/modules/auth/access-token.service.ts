import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  currentNumericDate,
  TOKEN_CLOCK_SKEW_SECONDS,
  tokenTimeViolation,
  type TokenTimeClaims,
} from '@platform/auth';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';

const ISSUER = 'certificate-service';
const AUDIENCE = 'certificate-service-api';
const TOKEN_TYPE = 'access';

interface AccessClaims extends TokenTimeClaims {
  sub?: unknown;
  typ?: unknown;
}

/**
 * Short-lived HS256 access tokens for people: iss, aud, typ and the shared time rule (exp and
 * iat required, nbf when present, with the clock skew) are checked.
 */
@Injectable()
export class AccessTokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  get ttlSeconds(): number {
    return this.config.jwt.accessTokenTtlSeconds;
  }

  sign(email: string): Promise<string> {
    return this.jwt.signAsync(
      { typ: TOKEN_TYPE },
      {
        subject: email,
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithm: 'HS256',
        expiresIn: this.config.jwt.accessTokenTtlSeconds,
        secret: this.config.jwt.secret,
      },
    );
  }

  /** The email in a valid access token, or null (forged, out of its lifetime, wrong iss/aud/typ). */
  async verify(token: string): Promise<string | null> {
    try {
      const claims = await this.jwt.verifyAsync<AccessClaims & object>(token, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        secret: this.config.jwt.secret,
        clockTolerance: TOKEN_CLOCK_SKEW_SECONDS,
      });
      if (claims.typ !== TOKEN_TYPE || typeof claims.sub !== 'string') return null;
      return tokenTimeViolation(claims, { nowSeconds: currentNumericDate() }) === null
        ? claims.sub
        : null;
    } catch {
      return null;
    }
  }
}
