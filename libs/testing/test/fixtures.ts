import { Column, Entity, PrimaryColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { buildDataSourceOptions } from '@platform/database';

export const migrationRuns = { count: 0 };

let gate: { enter(): void; opened: Promise<void> } | undefined;

/** Holds the next run of CreateGadget inside `up()` until `open()`; `entered` says it is there. */
export function holdNextMigration(): { entered: Promise<void>; open(): void } {
  let open!: () => void;
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  gate = { enter, opened: new Promise<void>((resolve) => (open = resolve)) };
  return { entered, open };
}

export class CreateGadget1700000000001 implements MigrationInterface {
  name = 'CreateGadget1700000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    migrationRuns.count += 1;
    const held = gate;
    gate = undefined;
    if (held) {
      held.enter();
      await held.opened;
    }
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
