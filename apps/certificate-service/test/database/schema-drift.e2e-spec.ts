import { DataSource } from 'typeorm';
import { detectSchemaDrift } from '@platform/database';
import type { TestDatabase } from '@platform/testing';
import { certificateDataSourceOptions } from '../../src/database/data-source';
import { testDatabase } from '../support/test-app';

describe('Schema drift - entities against migrations', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    db = await testDatabase();
    dataSource = await new DataSource(certificateDataSourceOptions(db.url)).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('generates no SQL on a migrated database', async () => {
    expect(await detectSchemaDrift(dataSource)).toEqual([]);
  });
});
