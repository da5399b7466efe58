import { Module } from '@nestjs/common';
import { LicenseModule } from '../license/license.module';
import { StatsController } from './stats.controller';
import { StatsRepository } from './stats.repository';
import { StatsService } from './stats.service';

@Module({
  imports: [LicenseModule],
  controllers: [StatsController],
  providers: [StatsRepository, StatsService],
})
export class StatsModule {}
