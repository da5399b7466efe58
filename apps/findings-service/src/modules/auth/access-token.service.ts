import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { ACCESS_TOKEN_TYPE, JWT_AUDIENCE, JWT_ISSUER } from './jwt-claims';

/** Signs short-lived HS256 access tokens. */
@Injectable()
export class AccessTokenService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly jwt: JwtService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.jwt.generated) {
      this.logger.warn(
        'JWT_SECRET is not set: using a random per-process secret (tokens do not survive a restart and are not shared between replicas)',
      );
    }
  }

  get ttlSeconds(): number {
    return this.config.jwt.accessTtlSeconds;
  }

  sign(userId: string): Promise<string> {
    return this.jwt.signAsync(
      { typ: ACCESS_TOKEN_TYPE },
      {
        secret: this.config.jwt.secret,
        algorithm: 'HS256',
        issuer: JWT_ISSUER,
        audience: JWT_AUDIENCE,
        subject: userId,
        expiresIn: this.config.jwt.accessTtlSeconds,
      },
    );
  }
}
