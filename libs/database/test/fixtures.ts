import {
  Column,
  Entity,
  PrimaryGeneratedColumn,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';

let gate: { enter(): void; opened: Promise<void> } | undefined;

/**
 * Holds the next run of CreateWidget inside `up()` (a replica mid-migration, holding the lock)
 * until `open()`; `entered` resolves once it is there.
 */
export function holdNextMigration(): { entered: Promise<void>; open(): void } {
  let open!: () => void;
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  gate = { enter, opened: new Promise<void>((resolve) => (open = resolve)) };
  return { entered, open };
}

export class CreateWidget1700000000000 implements MigrationInterface {
  name = 'CreateWidget1700000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const held = gate;
    gate = undefined;
    if (held) {
      held.enter();
      await held.opened;
    }
    await queryRunner.query(
      'CREATE TABLE "widget" ("id" SERIAL NOT NULL, "display_name" text NOT NULL, ' +
        '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), ' +
        'CONSTRAINT "PK_feb5fda4f8d30bbe0022f4ca804" PRIMARY KEY ("id"))',
    );
  }

  async down(): Promise<void> {
    throw new Error('forward-only: down() must never run');
  }
}

@Entity('widget')
export class Widget {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') displayName!: string;
  @Column({ type: 'timestamptz', default: () => 'now()' }) createdAt!: Date;
}

/** The same table with a column no migration creates. */
@Entity('widget')
export class WidgetWithSeverity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') displayName!: string;
  @Column({ type: 'timestamptz', default: () => 'now()' }) createdAt!: Date;
  @Column('integer', { nullable: true }) severityScore!: number | null;
}
