import { Global, Module } from '@nestjs/common';
import { EnrichedFindings } from '../../enrichment/enriched-findings.port';
import { ProductFindings } from '../../products/product-findings.port';
import { ProjectFindings } from '../../projects/project-findings.port';
import { AssignedFindings } from '../../users/assigned-findings.port';
import { FindingsCascadesRepository } from './findings-cascades.repository';

/**
 * Binds the ports through which the modules below findings change the `findings` table
 * (ProductFindings, ProjectFindings, AssignedFindings, EnrichedFindings) to the findings
 * module's statements. Global, imported once by each composition root (the API's AppModule,
 * the WorkerModule): those modules cannot import findings, which imports them.
 */
@Global()
@Module({
  providers: [
    FindingsCascadesRepository,
    { provide: ProductFindings, useExisting: FindingsCascadesRepository },
    { provide: ProjectFindings, useExisting: FindingsCascadesRepository },
    { provide: AssignedFindings, useExisting: FindingsCascadesRepository },
    { provide: EnrichedFindings, useExisting: FindingsCascadesRepository },
  ],
  exports: [ProductFindings, ProjectFindings, AssignedFindings, EnrichedFindings],
})
export class FindingsCascadesModule {}
