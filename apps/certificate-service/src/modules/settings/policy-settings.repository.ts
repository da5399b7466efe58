import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PolicySettingEntity } from './policy-setting.entity';

export type PolicyKey =
  'enroll_source_auth' | 'sa_auto_approve' | 'ssh_keys' | 'keyholder' | 'k8s' | 'app_attest';

@Injectable()
export class PolicySettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(PolicySettingEntity);
  }

  find(key: PolicyKey): Promise<PolicySettingEntity | null> {
    return this.repo.findOneBy({ key });
  }

  async put(
    key: PolicyKey,
    value: Record<string, unknown>,
    updatedBy: string,
  ): Promise<PolicySettingEntity> {
    await this.dataSource.query(
      `INSERT INTO policy_settings (key, value, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by,
       updated_at = now()`,
      [key, JSON.stringify(value), updatedBy],
    );
    return this.repo.findOneByOrFail({ key });
  }
}
