import { useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type LicenseStatus = Schemas['LicenseStatusDto'];
export type ReanchorResult = Schemas['ReanchorResultDto'];
export type SeatStep = Schemas['SeatEnforcementDto']['step'];

/** The query key of the license status: the page and the tamper banner share it. */
export const LICENSE_STATUS_KEY = ['license', 'status'] as const;

/** GET /api/v1/license/status (every admin role); polled each minute for the banner. */
export function useLicenseStatus(enabled = true) {
  return useQuery({
    queryKey: LICENSE_STATUS_KEY,
    queryFn: () => call(api.GET('/api/v1/license/status')),
    enabled,
    refetchInterval: 60_000,
  });
}

export function useSeatEnforcement() {
  return useQuery({
    queryKey: ['license', 'seat-enforcement'],
    queryFn: () => call(api.GET('/api/v1/license/seat-enforcement')),
  });
}

export const setSeatEnforcement = (step: SeatStep) =>
  call(api.PUT('/api/v1/license/seat-enforcement', { body: { step } }));

export const activateLicense = (licenseB64: string) =>
  call(api.POST('/api/v1/license/activate', { body: { license_b64: licenseB64 } }));

export const reanchorLedger = () => call(api.POST('/api/v1/license/reanchor', {}));

/** The `.lic` file's bytes as base64 (the body of the activation). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
