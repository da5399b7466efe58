import { createHmac } from 'node:crypto';

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * An HS256 JWT over exactly `claims` (no claim added or checked), so tests can send tokens
 * that JWT libraries refuse to sign: without exp or iat, or with non-numeric time claims.
 */
export function signHs256Jwt(claims: Record<string, unknown>, secret: string): string {
  const signingInput = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}`;
  const signature = createHmac('sha256', secret).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}
