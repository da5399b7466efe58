import { Injectable } from '@nestjs/common';
import { normalizePerson, personalLogin } from './principal-name';
import { PrincipalAliasesRepository } from './principal-aliases.repository';

/** Shared accounts: which login names a person may use on target servers. */
@Injectable()
export class PrincipalAliasesService {
  constructor(private readonly aliases: PrincipalAliasesRepository) {}

  /** Enabled aliases the person stands behind, sorted. */
  aliasesOf(person: string): Promise<string[]> {
    return this.aliases.enabledAliasesOf(normalizePerson(person));
  }

  /**
   * Login names for a person's SSH certificate: the personal login (local part of the email,
   * when it is a valid name) followed by the enabled aliases, without duplicates.
   */
  async principalsOf(person: string): Promise<string[]> {
    const own = personalLogin(normalizePerson(person));
    const aliases = await this.aliasesOf(person);
    return [...new Set([...(own ? [own] : []), ...aliases])];
  }
}
