import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CaModule } from '../ca/ca.module';
import { LicenseModule } from '../license/license.module';
import { PrincipalAliasesModule } from '../principal-aliases/principal-aliases.module';
import { K8sBrokerServer } from './k8s-broker.server';
import { K8sCallersRepository } from './k8s-callers.repository';
import { K8sClustersController } from './k8s-clusters.controller';
import { K8sClustersRepository } from './k8s-clusters.repository';
import { K8sClustersService } from './k8s-clusters.service';
import { K8sCredentialService } from './k8s-credential.service';

/**
 * Kubernetes access: the cluster registry (API routes) and the credential broker (its own
 * mutual-TLS listener when `CERTSVC_K8S_BROKER_URL` is set).
 */
@Module({
  imports: [AuditModule, CaModule, LicenseModule, PrincipalAliasesModule],
  controllers: [K8sClustersController],
  providers: [
    K8sClustersRepository,
    K8sClustersService,
    K8sCallersRepository,
    K8sCredentialService,
    K8sBrokerServer,
  ],
  exports: [K8sClustersService, K8sBrokerServer],
})
export class K8sModule {}
