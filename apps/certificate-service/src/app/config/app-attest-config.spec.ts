import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@platform/config';
import { decodeCbor, toPem, type CborValue } from '@platform/pki';
import {
  testAppAttestIntermediate,
  testAppAttestRoot,
  testAppAttestation,
} from '@platform/pki/testing';
import { loadCertsvcConfig } from './certsvc-config';

const BASE = {
  CERTSVC_DATABASE_URL: 'postgres://x@localhost/db',
  CERTSVC_JWT_SECRET: 's'.repeat(40),
  CERTSVC_CA_KEY_ENC_KEY: '11'.repeat(32),
};
const APP_ID = 'ABCDE12345.com.example.agent';

const scratch = mkdtempSync(join(tmpdir(), 'aa-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;

function file(text: string): string {
  const path = join(scratch, `roots-${++files}.pem`);
  writeFileSync(path, text);
  return path;
}

function problems(env: Record<string, string>): string {
  try {
    loadCertsvcConfig({ ...BASE, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('loadCertsvcConfig - App Attest', () => {
  it('has no roots, no App IDs and no development keys by default', () => {
    expect(loadCertsvcConfig(BASE).appAttest).toEqual({
      roots: [],
      appIds: [],
      allowDevelopment: false,
    });
  });

  it('reads the roots file, the App IDs and the development switch', () => {
    const root = testAppAttestRoot();
    const config = loadCertsvcConfig({
      ...BASE,
      CERTSVC_APP_ATTEST_ROOTS_FILE: file(toPem('CERTIFICATE', root.der)),
      CERTSVC_APP_ATTEST_APP_IDS: `${APP_ID}, ZYXWV98765.org.example.other`,
      CERTSVC_APP_ATTEST_ALLOW_DEVELOPMENT: 'true',
    }).appAttest;
    expect(config.roots.map((r) => r.raw)).toEqual([root.der]);
    expect(config.appIds).toEqual([APP_ID, 'ZYXWV98765.org.example.other']);
    expect(config.allowDevelopment).toBe(true);
  });

  it('refuses one variable without the other, bad App IDs and unusable root files', () => {
    const root = file(toPem('CERTIFICATE', testAppAttestRoot().der));
    expect(problems({ CERTSVC_APP_ATTEST_ROOTS_FILE: root })).toMatch(/must be set together/);
    expect(problems({ CERTSVC_APP_ATTEST_APP_IDS: APP_ID })).toMatch(/must be set together/);
    expect(
      problems({
        CERTSVC_APP_ATTEST_ROOTS_FILE: root,
        CERTSVC_APP_ATTEST_APP_IDS: 'com.example.app',
      }),
    ).toMatch(/not TEAMID.bundle.id/);
    const withIds = (path: string) =>
      problems({ CERTSVC_APP_ATTEST_ROOTS_FILE: path, CERTSVC_APP_ATTEST_APP_IDS: APP_ID });
    expect(withIds('/nonexistent/roots.pem')).toMatch(/cannot read/);
    expect(withIds(file('no certificate here'))).toMatch(/holds no certificate/);
    const root2 = testAppAttestRoot();
    const made = testAppAttestation({
      intermediate: testAppAttestIntermediate(root2),
      challenge: Buffer.from('c'),
      appId: APP_ID,
    });
    const object = decodeCbor(made.attestation) as Map<string, CborValue>;
    const x5c = (object.get('attStmt') as Map<string, CborValue>).get('x5c') as Buffer[];
    expect(withIds(file(toPem('CERTIFICATE', x5c[0])))).toMatch(/must be a CA/);
  });
});
