import { Module } from '@nestjs/common';
import { CaModule } from '../ca/ca.module';
import { K8sModule } from '../k8s/k8s.module';
import { ServedFeatures } from './served-features';
import { SystemController } from './system.controller';

@Module({
  imports: [CaModule, K8sModule],
  controllers: [SystemController],
  providers: [ServedFeatures],
})
export class SystemModule {}
