import { Injectable } from '@nestjs/common';
import { actorLabel, type Actor } from '../../app/access/actor';
import { isPrincipalName, normalizePerson, personalLogin } from '../../app/domain/principal-name';
import { AuditService } from '../audit/audit.service';
import { PrincipalAliasesError } from './principal-aliases.errors';
import {
  PrincipalAliasesRepository,
  type AliasKeyRow,
  type PrincipalAliasRow,
} from './principal-aliases.repository';

/** Keys and owners behind an alias. */
export interface AliasKeys {
  alias: PrincipalAliasRow;
  keys: AliasKeyRow[];
}

/** Shared accounts: which login names a person may use on target servers. */
@Injectable()
export class PrincipalAliasesService {
  constructor(
    private readonly aliases: PrincipalAliasesRepository,
    private readonly audit: AuditService,
  ) {}

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

  /** `principalsOf` for many people in one query (bulk SSH issuance): person -> principals. */
  async principalsOfMany(people: readonly string[]): Promise<Map<string, string[]>> {
    const unique = [...new Set(people)];
    const aliases = await this.aliases.enabledAliasesOfMany([
      ...new Set(unique.map(normalizePerson)),
    ]);
    return new Map(
      unique.map((person) => {
        const normalized = normalizePerson(person);
        const own = personalLogin(normalized);
        return [person, [...new Set([...(own ? [own] : []), ...(aliases.get(normalized) ?? [])])]];
      }),
    );
  }

  list(): Promise<PrincipalAliasRow[]> {
    return this.aliases.list();
  }

  async create(actor: Actor, name: string, members: readonly string[]): Promise<PrincipalAliasRow> {
    const people = [...new Set(members.map(normalizePerson))];
    if (!(await this.aliases.create(name, actorLabel(actor), people))) {
      throw new PrincipalAliasesError('principal_alias_exists');
    }
    await this.audit.record({
      action: 'principal_alias.create',
      actor,
      target: name,
      details: { members: people },
    });
    return this.get(name);
  }

  async delete(actor: Actor, name: string): Promise<void> {
    const alias = await this.get(name);
    if (!(await this.aliases.delete(name)))
      throw new PrincipalAliasesError('principal_alias_not_found');
    await this.audit.record({
      action: 'principal_alias.delete',
      actor,
      target: name,
      details: { members: alias.members },
    });
  }

  async setEnabled(actor: Actor, name: string, enabled: boolean): Promise<PrincipalAliasRow> {
    const before = await this.get(name);
    if (before.alias.enabled === enabled) return before;
    if (!(await this.aliases.setEnabled(name, enabled))) {
      throw new PrincipalAliasesError('principal_alias_not_found');
    }
    await this.audit.record({
      action: enabled ? 'principal_alias.enable' : 'principal_alias.disable',
      actor,
      target: name,
    });
    return this.get(name);
  }

  async keys(name: string): Promise<AliasKeys> {
    const alias = await this.get(name);
    return { alias, keys: await this.aliases.activeKeysOf(name) };
  }

  async addMember(actor: Actor, name: string, member: string): Promise<PrincipalAliasRow> {
    await this.get(name);
    const person = normalizePerson(member);
    if (!(await this.aliases.addMember(name, person, actorLabel(actor)))) {
      throw new PrincipalAliasesError('principal_alias_member_exists');
    }
    await this.audit.record({
      action: 'principal_alias.member_add',
      actor,
      target: name,
      details: { member: person },
    });
    return this.get(name);
  }

  async removeMember(actor: Actor, name: string, member: string): Promise<void> {
    await this.get(name);
    const person = normalizePerson(member);
    if (!(await this.aliases.removeMember(name, person))) {
      throw new PrincipalAliasesError('principal_alias_member_not_found');
    }
    await this.audit.record({
      action: 'principal_alias.member_remove',
      actor,
      target: name,
      details: { member: person },
    });
  }

  private async get(name: string): Promise<PrincipalAliasRow> {
    const alias = isPrincipalName(name) ? await this.aliases.find(name) : null;
    if (!alias) throw new PrincipalAliasesError('principal_alias_not_found');
    return alias;
  }
}
