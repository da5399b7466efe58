import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProductsModule } from '../products/products.module';
import { ProjectsModule } from '../projects/projects.module';
import { ReportQueueModule } from '../report-queue/report-queue.module';
import { StorageModule } from '../storage/storage.module';
import { ReportEntity } from './report.entity';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([ReportEntity]),
    ProjectsModule,
    ProductsModule,
    StorageModule,
    ReportQueueModule,
  ],
  controllers: [ReportsController],
  providers: [ReportsRepository, ReportsService],
  exports: [ReportsRepository],
})
export class ReportsModule {}
