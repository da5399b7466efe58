import { X509Certificate } from 'node:crypto';
import { ANY_HOST, checkTcpTargetForm, type EgressPolicy } from '@platform/egress';
import type { PutIdentityDirectoryDto } from './dto/identity-directory.dto';
import type { IdentityDirectoryRow } from './identity-directory.repository';
import type { IdentityDirectoryView } from './identity-directory.view';
import { IdentitySidError } from './identity-sid.errors';
import { ATTRIBUTE } from './ldap-filter';

export type { IdentityDirectoryView } from './identity-directory.view';

/** The validated body, password apart. */
export type DirectorySettings = Omit<
  IdentityDirectoryRow,
  'sealedBindPassword' | 'updatedAt' | 'updatedBy'
>;

export const DEFAULT_UPN_ATTRIBUTE = 'userPrincipalName';
export const DEFAULT_SID_ATTRIBUTE = 'objectSid';
export const DEFAULT_TIMEOUT_MS = 5000;
export const TIMEOUT_RANGE = { min: 500, max: 30_000 } as const;

export function directoryView(row: IdentityDirectoryRow | null): IdentityDirectoryView {
  return {
    configured: row !== null,
    enabled: row?.enabled ?? false,
    url: row?.url ?? '',
    bindDn: row?.bindDn ?? '',
    hasBindPassword: row !== null && row.sealedBindPassword !== null,
    baseDn: row?.baseDn ?? '',
    upnAttribute: row?.upnAttribute ?? DEFAULT_UPN_ATTRIBUTE,
    sidAttribute: row?.sidAttribute ?? DEFAULT_SID_ATTRIBUTE,
    timeoutMs: row?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    caPem: row?.caPem ?? null,
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
  };
}

/** Checks the body field by field; the first problem is refused with its field named. */
export function validateDirectoryBody(
  body: PutIdentityDirectoryDto,
  egress: EgressPolicy,
): DirectorySettings {
  const url = checkedUrl(body.url, egress);
  const settings: DirectorySettings = {
    enabled: body.enabled,
    url,
    bindDn: dn('bind_dn', body.bind_dn),
    baseDn: dn('base_dn', body.base_dn),
    upnAttribute: attribute('upn_attribute', body.upn_attribute ?? DEFAULT_UPN_ATTRIBUTE),
    sidAttribute: attribute('sid_attribute', body.sid_attribute ?? DEFAULT_SID_ATTRIBUTE),
    timeoutMs: timeout(body.timeout_ms ?? DEFAULT_TIMEOUT_MS),
    caPem: caPem(body.ca_pem ?? null, url),
  };
  if (body.bind_password !== undefined && !printable(body.bind_password, 1)) {
    invalid('bind_password', 'must be 1 to 1024 characters without control characters');
  }
  return settings;
}

function checkedUrl(raw: string, egress: EgressPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalid('url', 'not an absolute URL');
  }
  if (url.protocol !== 'ldap:' && url.protocol !== 'ldaps:') {
    invalid('url', 'scheme must be ldap or ldaps');
  }
  if (url.username !== '' || url.password !== '') invalid('url', 'no credentials in the URL');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    invalid('url', 'no path, query or fragment: put the base DN in base_dn');
  }
  const port = url.port === '' ? (url.protocol === 'ldaps:' ? 636 : 389) : Number(url.port);
  const form = checkTcpTargetForm(
    egress,
    { caller: 'certificate-service identity directory', permittedHosts: ANY_HOST },
    { host: url.hostname, port },
  );
  if (!form.ok) {
    invalid(
      'url',
      `refused by the request-forgery guard (${form.reason}; see CERTSVC_IDENTITY_DIRECTORY_EGRESS_*)`,
    );
  }
  return `${url.protocol}//${url.host}`;
}

function dn(field: string, value: string): string {
  const trimmed = value.trim();
  if (!printable(trimmed, 1) || !trimmed.includes('=')) {
    invalid(field, 'must be a distinguished name (attr=value,...) without control characters');
  }
  return trimmed;
}

function attribute(field: string, value: string): string {
  if (!ATTRIBUTE.test(value)) invalid(field, 'must be an attribute name or OID');
  return value;
}

function timeout(value: number): number {
  if (!Number.isInteger(value) || value < TIMEOUT_RANGE.min || value > TIMEOUT_RANGE.max) {
    invalid('timeout_ms', `must be ${TIMEOUT_RANGE.min} to ${TIMEOUT_RANGE.max}`);
  }
  return value;
}

function caPem(value: string | null, url: string): string | null {
  if (value === null || value.trim() === '') return null;
  if (!url.startsWith('ldaps:')) invalid('ca_pem', 'only for an ldaps URL');
  const blocks = value.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks || blocks.length > 20) invalid('ca_pem', 'must hold 1 to 20 PEM certificates');
  for (const block of blocks ?? []) {
    try {
      new X509Certificate(block);
    } catch {
      invalid('ca_pem', 'a certificate cannot be read');
    }
  }
  return (blocks ?? []).join('\n') + '\n';
}

function printable(value: string, min: number): boolean {
  // eslint-disable-next-line no-control-regex
  return value.length >= min && value.length <= 1024 && !/[\u0000-\u001f\u007f]/.test(value);
}

function invalid(field: string, problem: string): never {
  throw new IdentitySidError('identity_directory_settings_invalid', { field, problem });
}
