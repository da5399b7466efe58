import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { hashPassword } from '@platform/auth';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { UsersRepository } from '../users/users.repository';

/**
 * With local auth on and CERTSVC_LOCAL_ADMIN_EMAIL/PASSWORD set, makes sure that local user
 * exists at start. A new user gets the password and `cert-admin`; an existing one is left
 * as it is (its password and roles may have been changed since). The password is never logged.
 */
@Injectable()
export class LocalAdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('LocalAdminBootstrap');
  constructor(
    private readonly users: UsersRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { enabled, adminEmail, adminPassword } = this.config.localAuth;
    if (!enabled || !adminEmail || !adminPassword) return;
    if (await this.users.findByEmail(adminEmail)) {
      this.logger.log({ email: adminEmail }, 'local admin exists');
      return;
    }
    const created = await this.users.create(adminEmail, await hashPassword(adminPassword), [
      'cert-admin',
    ]);
    if (created) this.logger.log({ email: adminEmail }, 'local admin created');
  }
}
