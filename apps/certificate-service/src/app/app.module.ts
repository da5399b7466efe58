import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { flattenValidationErrors } from '@platform/errors';
import { inputPipes } from '@platform/http';
import { CoreModule, type CertsvcRuntime } from './core.module';
import { InvalidRequestError } from './errors/certsvc-error';
import { CertsvcExceptionFilter } from './errors/certsvc-exception.filter';
import { AgentModule } from '../modules/agent/agent.module';
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
import { RequestsModule } from '../modules/requests/requests.module';
import { ServiceAccountsModule } from '../modules/service-accounts/service-accounts.module';
import { SettingsModule } from '../modules/settings/settings.module';
import { SystemModule } from '../modules/system/system.module';
import { UsersModule } from '../modules/users/users.module';

/** The HTTP API. `extraImports` lets tests mount probe controllers. */
@Module({})
export class AppModule {
  static register(
    runtime: CertsvcRuntime,
    extraImports: ModuleMetadata['imports'] = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(runtime),
        SystemModule,
        AuthModule,
        UsersModule,
        ServiceAccountsModule,
        AuditModule,
        DevicesModule,
        RequestsModule,
        SettingsModule,
        EnrollmentModule,
        AgentModule,
        CaModule,
        CertificatesModule,
        CrlModule,
        LicenseModule,
        ApprovalModule,
        RevocationModule,
        StatsModule,
        ...extraImports,
      ],
      providers: [
        { provide: APP_FILTER, useClass: CertsvcExceptionFilter },
        // Unstorable text is refused first, then the DTOs are validated (libs/http).
        ...inputPipes((errors) => new InvalidRequestError(flattenValidationErrors(errors))).map(
          (pipe) => ({ provide: APP_PIPE, useValue: pipe }),
        ),
      ],
    };
  }
}
