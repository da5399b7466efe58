import { useQuery } from '@tanstack/react-query';
import { api, call, callVoid, type Schemas } from '../../api/client';

export type SshKey = Schemas['SshKeyDto'];
export type SshKeyState = SshKey['state'];
export type PrincipalAlias = Schemas['PrincipalAliasDto'];
export type KeyholderToken = Schemas['KeyholderTokenDto'];

export const SSH_KEY_STATES: SshKeyState[] = ['pending', 'active', 'revoked', 'rejected'];
export const SSH_KEYS_PAGE = 50;

export interface SshKeyFilters {
  state?: SshKeyState;
  serial?: string;
  owner?: string;
}

/** Readable by every role: the CA line for sshd `TrustedUserCAKeys` and the token gate. */
export const useSshCa = () =>
  useQuery({
    queryKey: ['ssh', 'ca'],
    queryFn: () =>
      call(
        api.GET('/api/v1/ssh/ca-public-key', {
          params: { header: { accept: 'application/json' } },
        }),
      ),
  });

export const useTokenGate = () =>
  useQuery({
    queryKey: ['ssh', 'token-gate'],
    queryFn: () => call(api.GET('/api/v1/admin/keyholder-token-gate')),
  });

/** cert-admin only, reading included (spec "Roles"). */
export const fetchSshKeys = (filters: SshKeyFilters, page: number) =>
  call(
    api.GET('/api/v1/admin/ssh-keys', {
      params: { query: { ...filters, page, limit: SSH_KEYS_PAGE } },
    }),
  );

export const approveSshKey = (id: string) =>
  call(api.POST('/api/v1/admin/ssh-keys/{id}/approve', { params: { path: { id } } }));

/** An active key is revoked, a pending one rejected (the answer's `outcome`). */
export const revokeSshKey = (id: string, reason: string) =>
  call(
    api.POST('/api/v1/admin/ssh-keys/{id}/revoke', {
      params: { path: { id } },
      body: reason ? { reason } : {},
    }),
  );

export const useAliases = () =>
  useQuery({
    queryKey: ['ssh', 'aliases'],
    queryFn: () => call(api.GET('/api/v1/admin/principal-aliases')),
  });

export const createAlias = (body: Schemas['CreatePrincipalAliasDto']) =>
  call(api.POST('/api/v1/admin/principal-aliases', { body }));

export const deleteAlias = (alias: string) =>
  callVoid(api.DELETE('/api/v1/admin/principal-aliases/{alias}', { params: { path: { alias } } }));

export const useKeyholderTokens = () =>
  useQuery({
    queryKey: ['ssh', 'tokens'],
    queryFn: () => call(api.GET('/api/v1/admin/keyholder-tokens')),
  });

export const createKeyholderToken = (body: Schemas['CreateKeyholderTokenDto']) =>
  call(api.POST('/api/v1/admin/keyholder-tokens', { body }));

export const revokeKeyholderToken = (id: string) =>
  call(api.DELETE('/api/v1/admin/keyholder-tokens/{id}', { params: { path: { id } } }));

/** "a, b c" → ['a', 'b', 'c'] (names typed in one field). */
export const splitList = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
