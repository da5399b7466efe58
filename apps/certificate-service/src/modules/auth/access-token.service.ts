import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../config/certsvc-config';

const ISSUER = 'certificate-service';
const AUDIENCE = 'certificate-service-api';
const TOKEN_TYPE = 'access';

interface AccessClaims {
  sub?: unknown;
  typ?: unknown;
}

/** Short-lived HS256 access tokens for people (iss, aud and typ are checked). */
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

  /** The email in a valid access token, or null (expired, forged, wrong issuer/audience/type). */
  async verify(token: string): Promise<string | null> {
    try {
      const claims = await this.jwt.verifyAsync<AccessClaims & object>(token, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        secret: this.config.jwt.secret,
      });
      return claims.typ === TOKEN_TYPE && typeof claims.sub === 'string' ? claims.sub : null;
    } catch {
      return null;
    }
  }
}
