import {
  Column,
  Entity,
  PrimaryGeneratedColumn,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';

export class CreateWidget1700000000000 implements MigrationInterface {
  name = 'CreateWidget1700000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Slow enough that a racing replica reaches the lock while this one migrates.
    await queryRunner.query('SELECT pg_sleep(0.3)');
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
