import { JwtService } from '@nestjs/jwt';
import { createSecretKey, type KeyObject } from 'node:crypto';
import {
  ACCESS_TOKEN_ALGORITHM,
  ACCESS_TOKEN_TYPE,
  type AccessTokenPolicy,
} from './access-token-policy';

/** Issues the service's access tokens: `typ=access`, `sub`, `iss`, `aud`, `iat`, `exp`. */
export class AccessTokens {
  private readonly jwt = new JwtService({});
  // Made once: given a string, jsonwebtoken tries it as a PEM private key on every signature.
  private readonly key: KeyObject;

  constructor(private readonly policy: AccessTokenPolicy) {
    this.key = createSecretKey(Buffer.from(policy.secret));
  }

  get ttlSeconds(): number {
    return this.policy.ttlSeconds;
  }

  sign(subject: string): Promise<string> {
    return this.jwt.signAsync(
      { typ: ACCESS_TOKEN_TYPE },
      {
        // jsonwebtoken takes a KeyObject as is; @nestjs/jwt's types only name string | Buffer.
        secret: this.key as unknown as Buffer,
        algorithm: ACCESS_TOKEN_ALGORITHM,
        issuer: this.policy.issuer,
        audience: this.policy.audience,
        subject,
        expiresIn: this.policy.ttlSeconds,
      },
    );
  }
}
