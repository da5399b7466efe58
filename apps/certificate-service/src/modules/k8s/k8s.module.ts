import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { K8sClustersController } from './k8s-clusters.controller';
import { K8sClustersRepository } from './k8s-clusters.repository';
import { K8sClustersService } from './k8s-clusters.service';

/** Kubernetes access: the cluster registry (and, later, the credential broker). */
@Module({
  imports: [AuditModule],
  controllers: [K8sClustersController],
  providers: [K8sClustersRepository, K8sClustersService],
  exports: [K8sClustersService],
})
export class K8sModule {}
