import { JwtService } from '@nestjs/jwt';
import {
  ACCESS_TOKEN_ALGORITHM,
  ACCESS_TOKEN_TYPE,
  type AccessTokenPolicy,
} from './access-token-policy';

/** Issues the service's access tokens: `typ=access`, `sub`, `iss`, `aud`, `iat`, `exp`. */
export class AccessTokens {
  private readonly jwt = new JwtService({});

  constructor(private readonly policy: AccessTokenPolicy) {}

  get ttlSeconds(): number {
    return this.policy.ttlSeconds;
  }

  sign(subject: string): Promise<string> {
    return this.jwt.signAsync(
      { typ: ACCESS_TOKEN_TYPE },
      {
        secret: this.policy.secret,
        algorithm: ACCESS_TOKEN_ALGORITHM,
        issuer: this.policy.issuer,
        audience: this.policy.audience,
        subject,
        expiresIn: this.policy.ttlSeconds,
      },
    );
  }
}
