import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UserEntity } from './user.entity';

export interface NewUser {
  email: string;
  displayName: string;
  passwordHash: string | null;
  isAdmin: boolean;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.repo.findOneBy({ email });
  }

  list(): Promise<UserEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Inserts unless the email exists; returns null on conflict. */
  async insert(user: NewUser): Promise<UserEntity | null> {
    const result = await this.repo
      .createQueryBuilder()
      .insert()
      .values(user)
      .orIgnore()
      .returning('*')
      .execute();
    const row = (result.raw as Record<string, unknown>[])[0];
    return row ? this.repo.findOneBy({ email: user.email }) : null;
  }

  /** Creates or refreshes the configured local administrator (safe under concurrent starts). */
  async upsertAdmin(email: string, displayName: string, passwordHash: string): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({ email, displayName, passwordHash, isAdmin: true, isActive: true })
      .orUpdate(['password_hash', 'is_admin', 'is_active', 'updated_at'], ['email'])
      .execute();
  }

  async promoteToAdmin(id: string): Promise<void> {
    await this.repo.update({ id }, { isAdmin: true });
  }
}
