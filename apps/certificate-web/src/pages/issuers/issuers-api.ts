import { useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type IssuerProfile = Schemas['IssuerProfileDto'];
export type IssuerInput = Schemas['PutIssuerProfileDto'];
export type IssuerPurpose = IssuerProfile['purpose'];
export type IssuerKind = IssuerProfile['kind'];
export type ConnectionTest = Schemas['ConnectionTestDto'];

export const ISSUER_KINDS: IssuerKind[] = ['built_in', 'scep', 'est'];

export const useIssuers = () =>
  useQuery({ queryKey: ['issuers'], queryFn: () => call(api.GET('/api/v1/settings/issuers')) });

export const putIssuer = (purpose: IssuerPurpose, body: IssuerInput) =>
  call(api.PUT('/api/v1/settings/issuers/{purpose}', { params: { path: { purpose } }, body }));

export const testConnection = (purpose: IssuerPurpose) =>
  call(
    api.POST('/api/v1/settings/issuers/{purpose}/test-connection', {
      params: { path: { purpose } },
    }),
  );

/** A stored non-secret setting as text ('' when absent). */
export function setting(profile: IssuerProfile | undefined, name: string): string {
  const value = (profile?.settings as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Names of the stored secrets (never their values). */
export function storedSecrets(profile: IssuerProfile): string[] {
  return Object.entries((profile.has_secrets ?? {}) as Record<string, unknown>)
    .filter(([, stored]) => stored === true)
    .map(([name]) => name);
}
