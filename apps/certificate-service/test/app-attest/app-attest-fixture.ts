import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPem } from '@platform/pki';
import {
  testAppAttestIntermediate,
  testAppAttestRoot,
  testAppAttestation,
  type TestAttestationOptions,
  type TestCa,
} from '@platform/pki/testing';
import type { TestApp } from '../support/test-app';

export const TEST_APP_ID = 'ABCDE12345.com.example.certagent';

/** A test App Attest root written to a PEM file, and the env that configures it. */
export interface AppAttestPki {
  root: TestCa;
  intermediate: TestCa;
  env: Record<string, string>;
  /** Removes the roots file's temporary directory. */
  dispose(): void;
}

export function appAttestPki(): AppAttestPki {
  const root = testAppAttestRoot();
  const intermediate = testAppAttestIntermediate(root);
  const dir = mkdtempSync(join(tmpdir(), 'app-attest-'));
  const file = join(dir, 'roots.pem');
  writeFileSync(file, toPem('CERTIFICATE', root.der));
  return {
    root,
    intermediate,
    env: {
      CERTSVC_APP_ATTEST_ROOTS_FILE: file,
      CERTSVC_APP_ATTEST_APP_IDS: `OTHER12345.com.example.other,${TEST_APP_ID}`,
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function appAttestChallenge(t: TestApp, serial: string): Promise<string> {
  const res = await t.http.post('/api/v1/enroll/app-attest/challenge').send({ serial }).expect(201);
  return (res.body as { challenge: string }).challenge;
}

/** The body of `POST /enroll/app-attest` for a fresh challenge of `serial`. */
export async function appAttestReceipt(
  t: TestApp,
  pki: AppAttestPki,
  serial: string,
  overrides: Partial<TestAttestationOptions> = {},
): Promise<{ serial: string; challenge: string; key_id: string; attestation: string }> {
  const challenge = await appAttestChallenge(t, serial);
  const made = testAppAttestation({
    intermediate: pki.intermediate,
    challenge: Buffer.from(challenge, 'utf8'),
    appId: TEST_APP_ID,
    ...overrides,
  });
  return {
    serial,
    challenge,
    key_id: made.keyId.toString('base64'),
    attestation: made.attestation.toString('base64'),
  };
}

/** A verified attestation id for `serial` (201 expected). */
export async function verifiedAttestation(
  t: TestApp,
  pki: AppAttestPki,
  serial: string,
  osVersion = '27.1',
): Promise<string> {
  const body = await appAttestReceipt(t, pki, serial);
  const res = await t.http
    .post('/api/v1/enroll/app-attest')
    .send({ ...body, os_version: osVersion })
    .expect(201);
  return (res.body as { attestation_id: string }).attestation_id;
}
