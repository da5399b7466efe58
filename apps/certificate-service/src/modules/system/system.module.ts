import { Module } from '@nestjs/common';
import { CaModule } from '../ca/ca.module';
import { ServedFeatures } from './served-features';
import { SystemController } from './system.controller';

@Module({ imports: [CaModule], controllers: [SystemController], providers: [ServedFeatures] })
export class SystemModule {}
