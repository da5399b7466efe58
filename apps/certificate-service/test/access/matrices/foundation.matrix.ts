import { randomUUID } from 'node:crypto';
import { ADMIN, type Caller, PEOPLE, READERS } from './callers';

export interface FoundationRow {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Declared route template. */
  template: string;
  /** Concrete path the matrix requests. */
  path: string;
  allowed: Caller[] | 'public';
}

/** Routes of the auth, users, service-accounts, audit and system modules. */
export const FOUNDATION_PREFIXES = [
  '/health',
  '/metrics',
  '/api/v1/version',
  '/api/v1/features',
  '/api/v1/auth/',
  '/api/v1/users',
  '/api/v1/service-accounts',
  '/api/v1/audit',
];

const someone = 'someone@certsvc.test';
const sa = randomUUID();
const row = (
  method: FoundationRow['method'],
  template: string,
  allowed: FoundationRow['allowed'],
): FoundationRow => ({
  method,
  template,
  path: template.replace(':email', someone).replace(':id', sa),
  allowed,
});

// Write routes get an invalid body: a caller that passes the guard gets 400 (or 404), so the
// matrix changes nothing.
export const FOUNDATION_ROWS: FoundationRow[] = [
  row('get', '/health', 'public'),
  row('get', '/metrics', 'public'),
  row('get', '/api/v1/version', 'public'),
  row('get', '/api/v1/features', 'public'),
  row('get', '/api/v1/auth/config', 'public'),
  row('post', '/api/v1/auth/local/login', 'public'),
  row('post', '/api/v1/auth/refresh', 'public'),
  row('post', '/api/v1/auth/logout', 'public'),
  row('post', '/api/v1/auth/callback', 'public'),
  row('get', '/api/v1/auth/me', PEOPLE),
  row('post', '/api/v1/auth/change-password', PEOPLE),
  row('get', '/api/v1/users', ADMIN),
  row('get', '/api/v1/users.csv', ADMIN),
  row('post', '/api/v1/users/local', ADMIN),
  row('put', '/api/v1/users/:email/roles', ADMIN),
  row('put', '/api/v1/users/:email/enabled', ADMIN),
  row('put', '/api/v1/users/:email/password', ADMIN),
  row('get', '/api/v1/service-accounts', ADMIN),
  row('post', '/api/v1/service-accounts', ADMIN),
  row('put', '/api/v1/service-accounts/:id/enabled', ADMIN),
  row('put', '/api/v1/service-accounts/:id/allowed-purposes', ADMIN),
  row('delete', '/api/v1/service-accounts/:id', ADMIN),
  row('get', '/api/v1/audit', READERS),
  row('get', '/api/v1/audit.csv', READERS),
];
