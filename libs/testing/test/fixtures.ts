import { Column, Entity, PrimaryColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { buildDataSourceOptions } from '@platform/database';

export const migrationRuns = { count: 0 };

export class CreateGadget1700000000001 implements MigrationInterface {
  name = 'CreateGadget1700000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    migrationRuns.count += 1;
    await queryRunner.query('SELECT pg_sleep(0.2)');
    await queryRunner.query('CREATE TABLE gadget (id text PRIMARY KEY, serial_number text)');
  }

  async down(): Promise<void> {
    throw new Error('forward-only');
  }
}

@Entity('gadget')
export class Gadget {
  @PrimaryColumn('text') id!: string;
  @Column('text', { nullable: true }) serialNumber!: string | null;
}

export const gadgetDataSourceOptions = (url: string) =>
  buildDataSourceOptions({
    url,
    entities: [Gadget],
    migrations: [CreateGadget1700000000001],
    applicationName: 'testing-lib-e2e',
    poolSize: 2,
  });
