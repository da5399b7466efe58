import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { certificateDatabase } from '../database/database';
import type { CertsvcConfig } from '../app/config/certsvc-config';
import { CoreModule } from '../app/core.module';
import type { CertsvcMetrics } from '../app/metrics/certsvc-metrics';
import { AgentModule } from '../modules/agent/agent.module';
import { IssuanceDirectivesModule } from '../modules/issuance-directives/issuance-directives.module';
import { LogSnapshotsModule } from '../modules/log-snapshots/log-snapshots.module';
import { ApprovalModule } from '../modules/approval/approval.module';
import { CaModule } from '../modules/ca/ca.module';
import { CertificatesModule } from '../modules/certificates/certificates.module';
import { CrlModule } from '../modules/crl/crl.module';
import { LicenseModule } from '../modules/license/license.module';
import { RevocationModule } from '../modules/revocation/revocation.module';
import { StatsModule } from '../modules/stats/stats.module';
import { AuditModule } from '../modules/audit/audit.module';
import { AuthModule } from '../modules/auth/auth.module';
import { DevicesModule } from '../modules/devices/devices.module';
import { EnrollmentModule } from '../modules/enrollment/enrollment.module';
import { TokenRecoverModule } from '../modules/token-recover/token-recover.module';
import { RequestsModule } from '../modules/requests/requests.module';
import { ServiceAccountsModule } from '../modules/service-accounts/service-accounts.module';
import { SettingsModule } from '../modules/settings/settings.module';
import { AgentUpdateModule } from '../modules/agent-update/agent-update.module';
import { SystemModule } from '../modules/system/system.module';
import { UsersModule } from '../modules/users/users.module';
import { SshKeysModule } from '../modules/ssh-keys/ssh-keys.module';
import { SshModule } from '../modules/ssh/ssh.module';
import { PrincipalAliasesModule } from '../modules/principal-aliases/principal-aliases.module';
import { KeyholderModule } from '../modules/keyholder/keyholder.module';
import { K8sModule } from '../modules/k8s/k8s.module';
import { IssuerSettingsModule } from '../modules/issuer-profiles/issuer-settings.module';
import { WebhooksModule } from '../modules/webhooks/webhooks.module';
import { NetworksModule } from '../modules/networks/networks.module';
import { IdentitySidModule } from '../modules/identity-sid/identity-sid.module';
import { TpmRootsModule } from '../modules/tpm-roots/tpm-roots.module';
import { AppAttestModule } from '../modules/app-attest/app-attest.module';

/** The HTTP API. `extraImports` lets tests mount probe controllers. */
@Module({})
export class AppModule {
  static forRoot(
    config: CertsvcConfig,
    metrics: CertsvcMetrics,
    extraImports: ModuleMetadata['imports'] = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, metrics),
        certificateDatabase(config, 'apply'),
        SystemModule,
        AuthModule,
        UsersModule,
        ServiceAccountsModule,
        AuditModule,
        DevicesModule,
        RequestsModule,
        SettingsModule,
        AgentUpdateModule,
        EnrollmentModule,
        TokenRecoverModule,
        AgentModule,
        CaModule,
        IssuerSettingsModule,
        CertificatesModule,
        CrlModule,
        LicenseModule,
        ApprovalModule,
        RevocationModule,
        StatsModule,
        SshKeysModule,
        SshModule,
        PrincipalAliasesModule,
        KeyholderModule,
        K8sModule,
        WebhooksModule,
        IssuanceDirectivesModule,
        NetworksModule,
        IdentitySidModule,
        TpmRootsModule,
        LogSnapshotsModule,
        AppAttestModule,
        ...extraImports,
      ],
    };
  }
}
