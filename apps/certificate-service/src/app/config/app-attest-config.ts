import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { EnvReader } from '@platform/config';
import { certificatesFromPem } from '@platform/pki';

/** Apple App Attest receipts (docs/certificate-service/app-attest.md). */
export interface CertsvcAppAttestConfig {
  /**
   * `CERTSVC_APP_ATTEST_ROOTS_FILE`: PEM file of the accepted App Attest roots (Apple App
   * Attestation Root CA in production), read once at boot. Empty: receipts are refused.
   */
  roots: X509Certificate[];
  /** `CERTSVC_APP_ATTEST_APP_IDS`: accepted App IDs, `TEAMID.bundle.id`, comma separated. */
  appIds: string[];
  /** `CERTSVC_APP_ATTEST_ALLOW_DEVELOPMENT` (false): accept `appattestdevelop` keys too. */
  allowDevelopment: boolean;
}

/** Team ID (10 upper-case letters or digits), a dot, a bundle identifier. */
const APP_ID_PATTERN = /^[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;

export function readAppAttestConfig(r: EnvReader): CertsvcAppAttestConfig {
  const appIds = r.list('CERTSVC_APP_ATTEST_APP_IDS');
  for (const id of appIds.filter((a) => !APP_ID_PATTERN.test(a))) {
    r.problem(`CERTSVC_APP_ATTEST_APP_IDS: "${id}" is not TEAMID.bundle.id`);
  }
  const allowDevelopment = r.bool('CERTSVC_APP_ATTEST_ALLOW_DEVELOPMENT', false);
  const file = r.optionalString('CERTSVC_APP_ATTEST_ROOTS_FILE');
  const roots = file === undefined ? [] : readRoots(r, file);
  if ((file === undefined) !== (appIds.length === 0)) {
    r.problem('CERTSVC_APP_ATTEST_ROOTS_FILE and CERTSVC_APP_ATTEST_APP_IDS must be set together');
  }
  return { roots, appIds, allowDevelopment };
}

function readRoots(r: EnvReader, file: string): X509Certificate[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    r.problem(`CERTSVC_APP_ATTEST_ROOTS_FILE: cannot read ${file} (${(error as Error).message})`);
    return [];
  }
  try {
    const roots = certificatesFromPem(text).map((der) => new X509Certificate(der));
    if (roots.length === 0) r.problem('CERTSVC_APP_ATTEST_ROOTS_FILE holds no certificate');
    if (roots.some((c) => !c.ca)) {
      r.problem('CERTSVC_APP_ATTEST_ROOTS_FILE: every certificate must be a CA');
    }
    return roots;
  } catch {
    r.problem('CERTSVC_APP_ATTEST_ROOTS_FILE holds a certificate that cannot be read');
    return [];
  }
}
