import { useQuery } from '@tanstack/react-query';
import { api, call, callVoid, type Schemas } from '../../api/client';

export type SystemSettings = Schemas['SystemSettingsDto'];
export type SourceAuth = Schemas['EnrollSourceAuthDto'];
export type CorpPolicy = Schemas['SaAutoApproveDto'];

export const useSystemSettings = (enabled: boolean) =>
  useQuery({
    queryKey: ['settings', 'system'],
    queryFn: () => call(api.GET('/api/v1/settings/system')),
    enabled,
  });

export const useSourceAuth = () =>
  useQuery({
    queryKey: ['settings', 'source-auth'],
    queryFn: () => call(api.GET('/api/v1/settings/enroll-source-auth')),
  });

export const useCorpPolicy = () =>
  useQuery({
    queryKey: ['settings', 'corp-policy'],
    queryFn: () => call(api.GET('/api/v1/settings/sa-auto-approve')),
  });

export const useCorpAllowlist = () =>
  useQuery({
    queryKey: ['settings', 'corp-allowlist'],
    queryFn: () => call(api.GET('/api/v1/admin/corp-allowlist')),
  });

export const putSystemSettings = (body: Schemas['PutSystemSettingsDto']) =>
  call(api.PUT('/api/v1/settings/system', { body }));

export const putSourceAuth = (body: Schemas['PutEnrollSourceAuthDto']) =>
  call(api.PUT('/api/v1/settings/enroll-source-auth', { body }));

export const putCorpPolicy = (body: Schemas['PutSaAutoApproveDto']) =>
  call(api.PUT('/api/v1/settings/sa-auto-approve', { body }));

export const addAllowlistEntry = (serial: string, note: string) =>
  call(
    api.POST('/api/v1/admin/corp-allowlist', {
      body: { serial, ...(note.trim() ? { note: note.trim() } : {}) },
    }),
  );

export const removeAllowlistEntry = (serial: string) =>
  callVoid(api.DELETE('/api/v1/admin/corp-allowlist/{serial}', { params: { path: { serial } } }));

/** One value per line (blank lines dropped). */
export const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
