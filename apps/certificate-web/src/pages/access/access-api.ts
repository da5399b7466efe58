import { useQuery } from '@tanstack/react-query';
import { api, call, callVoid, type Schemas } from '../../api/client';

export type User = Schemas['UserDto'];
export type UserRole = Schemas['SetRolesDto']['roles'][number];
export type ServiceAccount = Schemas['ServiceAccountDto'];
export type CreatedServiceAccount = Schemas['CreatedServiceAccountDto'];
export type Purpose = Schemas['ServiceAccountDto']['allowed_purposes'][number];

export const USER_ROLES: UserRole[] = ['cert-admin', 'cert-approver', 'cert-viewer'];
export const PURPOSES: Purpose[] = ['wifi', 'user_mtls', 'ad_logon', 'ssh', 'k8s', 'vpn'];

export const useUsers = () =>
  useQuery({ queryKey: ['access', 'users'], queryFn: () => call(api.GET('/api/v1/users')) });

export const useServiceAccounts = () =>
  useQuery({
    queryKey: ['access', 'service-accounts'],
    queryFn: () => call(api.GET('/api/v1/service-accounts')),
  });

export const setRoles = (email: string, roles: UserRole[]) =>
  call(api.PUT('/api/v1/users/{email}/roles', { params: { path: { email } }, body: { roles } }));

export const createServiceAccount = (body: Schemas['CreateServiceAccountDto']) =>
  call(api.POST('/api/v1/service-accounts', { body }));

export const setServiceAccountEnabled = (id: string, enabled: boolean) =>
  call(
    api.PUT('/api/v1/service-accounts/{id}/enabled', {
      params: { path: { id } },
      body: { enabled },
    }),
  );

export const setAllowedPurposes = (id: string, purposes: Purpose[]) =>
  call(
    api.PUT('/api/v1/service-accounts/{id}/allowed-purposes', {
      params: { path: { id } },
      body: { allowed_purposes: purposes },
    }),
  );

export const deleteServiceAccount = (id: string) =>
  callVoid(api.DELETE('/api/v1/service-accounts/{id}', { params: { path: { id } } }));
