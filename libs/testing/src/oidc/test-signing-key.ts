import {
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomUUID,
  sign,
} from 'node:crypto';

/** An RSA key a test signs ID tokens with, and its JWK forms. */
export interface TestSigningKey {
  kid: string;
  privateKey: KeyObject;
  /** Private JWK (what the provider is configured with). */
  privateJwk: JsonWebKey;
}

export function newSigningKey(): TestSigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, privateJwk };
}

export type JwtClaims = Record<string, unknown>;

/** A compact JWS over `claims`: RS256 with `key`, or unsigned when `alg` is `none`. */
export function signJwt(
  claims: JwtClaims,
  key: TestSigningKey | null,
  header: Record<string, unknown> = {},
): string {
  const protectedHeader = key
    ? { alg: 'RS256', typ: 'JWT', kid: key.kid, ...header }
    : { alg: 'none', typ: 'JWT', ...header };
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(protectedHeader)}.${part(claims)}`;
  const signature = key
    ? sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')
    : '';
  return `${input}.${signature}`;
}

/** The claims of a compact JWT (not verified). */
export function jwtClaims(token: string): JwtClaims {
  return JSON.parse(
    Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
  ) as JwtClaims;
}
