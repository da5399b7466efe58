import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, authFetch, call, toApiError, type Schemas } from '../../api/client';

export type Device = Schemas['DeviceDto'];
export type DeviceRevocation = Schemas['DeviceRevocationDto'];
export type Purpose = Device['assigned_purposes'][number];
export type OverrideMode = 'inherit' | 'allow' | 'deny';

export interface DeviceFilters {
  serial?: string;
  owner?: string;
  platform?: string;
  blocked?: boolean;
  purpose?: Purpose;
}

/** Rows per page of the device list (the API allows 500). */
export const PAGE_SIZE = 100;

export function readDeviceFilters(search: URLSearchParams): DeviceFilters {
  const blocked = search.get('blocked');
  return {
    serial: search.get('serial') ?? undefined,
    owner: search.get('owner') ?? undefined,
    platform: search.get('platform') ?? undefined,
    blocked: blocked === 'true' ? true : blocked === 'false' ? false : undefined,
    purpose: (search.get('purpose') as Purpose | null) ?? undefined,
  };
}

export function writeDeviceFilters(filters: DeviceFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  return search;
}

export function useDeviceList(filters: DeviceFilters) {
  return useInfiniteQuery({
    queryKey: ['devices', filters],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/devices', {
          params: { query: { ...filters, page: pageParam, limit: PAGE_SIZE } },
        }),
      ),
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });
}

/**
 * One device by its exact serial: the list filters by a part of the serial (case-insensitive),
 * so the exact match is picked from its first page (null: no such device).
 */
export function useDevice(serial: string) {
  return useQuery({
    queryKey: ['device', serial],
    queryFn: async () => {
      const page = await call(
        api.GET('/api/v1/devices', { params: { query: { serial, limit: 500 } } }),
      );
      return page.items.find((d) => d.serial === serial) ?? null;
    },
  });
}

/** Seats per purpose of the license in force (for the seat warnings). */
export function useLicenseSeats() {
  return useQuery({
    queryKey: ['license', 'status'],
    queryFn: () => call(api.GET('/api/v1/license/status')),
  });
}

/** The requests of one device (all statuses), newest first: the 'registered during block' flags. */
export function useDeviceRequests(serial: string) {
  return useQuery({
    queryKey: ['device', serial, 'requests'],
    queryFn: () =>
      call(
        api.GET('/api/v1/requests', {
          params: { query: { serial, limit: 50 } },
        }),
      ),
  });
}

/** A file the API serves (bundle, log snapshot) saved by the browser under `name`. */
export async function download(path: string, name: string): Promise<void> {
  const response = await authFetch(new Request(`${window.location.origin}${path}`));
  if (!response.ok) throw toApiError(response, await response.json().catch(() => undefined));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}
