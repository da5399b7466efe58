import { useInfiniteQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';
import {
  pathsApiV1CertificatesGetParametersQueryPurposeValues as PURPOSES,
  pathsApiV1CertificatesGetParametersQueryStatusValues as STATUSES,
} from '../../api/schema.gen';

export type Certificate = Schemas['CertificateListItemDto'];
export type RevocationReason = NonNullable<Schemas['RevokeCertificateDto']['reason']>;
export type KeyProtection = Certificate['key_protection'];
export { PURPOSES, STATUSES };

export interface CertificateFilters {
  serial?: string;
  device?: string;
  subject?: string;
  purpose?: Certificate['purpose'];
  status?: Certificate['status'];
}

export const REASONS: RevocationReason[] = [
  'unspecified',
  'keyCompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'privilegeWithdrawn',
];

export const PAGE_SIZE = 100;

export function readCertificateFilters(search: URLSearchParams): CertificateFilters {
  const get = (name: string) => search.get(name) || undefined;
  return {
    serial: get('serial'),
    device: get('device'),
    subject: get('subject'),
    purpose: get('purpose') as CertificateFilters['purpose'],
    status: get('status') as CertificateFilters['status'],
  };
}

export function writeCertificateFilters(filters: CertificateFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value) search.set(name, String(value));
  }
  return search;
}

export function useCertificateList(filters: CertificateFilters) {
  return useInfiniteQuery({
    queryKey: ['certificates', filters],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/certificates', {
          params: { query: { ...filters, page: pageParam, limit: PAGE_SIZE } },
        }),
      ),
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });
}

export function revokeCertificate(serial: string, reason: RevocationReason) {
  return call(
    api.POST('/api/v1/certificates/{serial}/revoke', {
      params: { path: { serial } },
      body: { reason },
    }),
  );
}
