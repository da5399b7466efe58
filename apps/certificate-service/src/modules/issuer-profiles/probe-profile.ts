import { createOutboundHttp } from '@platform/egress';
import type { CertsvcConfig } from '../../app/config/certsvc-config';
import { StepLog, type ConnectionTestResult } from './connection-steps';
import { probeEst } from './est-probe';
import type {
  EstProfileSettings,
  ScepProfileSettings,
  StoredProfile,
} from './issuer-profile.model';
import { estConfig, type ProfileIssuerFactory } from './profile-issuer.factory';
import { probeScep } from './scep-probe';

/** Runs the connection test of a stored profile (or tells why there is nothing to test). */
export async function probeProfile(
  profile: StoredProfile | undefined,
  config: CertsvcConfig,
  factory: ProfileIssuerFactory,
): Promise<ConnectionTestResult & { kind: string }> {
  const kind = profile?.kind ?? config.issuers.defaultKind;
  const log = new StepLog();
  if (kind === 'built_in') {
    log.pass('config', 'the built-in CA: no connection to test');
    return { kind, ...log.result() };
  }
  if (!profile) {
    return {
      kind,
      ...log.fail('config', `CERTSVC_ISSUER=${kind} and no profile is stored for this purpose`),
    };
  }
  const secrets = factory.secretsOf(profile);
  if (secrets === undefined) {
    return {
      kind,
      ...log.fail('config', 'the stored secrets cannot be opened with CERTSVC_SCEP_ENC_KEY'),
    };
  }
  if (profile.kind === 'est') {
    const settings = profile.settings as unknown as EstProfileSettings;
    return {
      kind,
      ...(await probeEst(estConfig(settings, secrets), factory.estHttp(settings, secrets))),
    };
  }
  const http = createOutboundHttp({
    caller: 'certificate-service scep',
    policy: { ...config.issuers.egress, maxResponseBytes: 1024 * 1024 },
  });
  return { kind, ...(await probeScep(profile.settings as unknown as ScepProfileSettings, http)) };
}
