import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrincipalAliasMemberEntity } from './principal-alias-member.entity';
import { PrincipalAliasEntity } from './principal-alias.entity';

/** An alias with its members (lower-cased emails, sorted). */
export interface PrincipalAliasRow {
  alias: PrincipalAliasEntity;
  members: string[];
}

/** An active key standing behind an alias, with its owner. */
export interface AliasKeyRow {
  id: string;
  owner: string;
  keyType: string;
  publicKey: Buffer;
  fingerprint: string;
  comment: string | null;
  deviceSerial: string | null;
  approvedAt: Date | null;
}

@Injectable()
export class PrincipalAliasesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get aliases() {
    return this.dataSource.getRepository(PrincipalAliasEntity);
  }

  private get members() {
    return this.dataSource.getRepository(PrincipalAliasMemberEntity);
  }

  /** Inserts the alias and its first members; false when the name is taken. */
  async create(name: string, createdBy: string, members: readonly string[]): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const inserted = await em
        .createQueryBuilder()
        .insert()
        .into(PrincipalAliasEntity)
        .values({ name, enabled: true, createdBy })
        .orIgnore()
        .returning('name')
        .execute();
      if (inserted.raw.length === 0) return false;
      if (members.length > 0) {
        await em
          .createQueryBuilder()
          .insert()
          .into(PrincipalAliasMemberEntity)
          .values(members.map((member) => ({ alias: name, member, addedBy: createdBy })))
          .orIgnore()
          .execute();
      }
      return true;
    });
  }

  async list(): Promise<PrincipalAliasRow[]> {
    const aliases = await this.aliases.find({ order: { name: 'ASC' } });
    const members = await this.members.find({ order: { alias: 'ASC', member: 'ASC' } });
    const byAlias = new Map<string, string[]>();
    for (const m of members) byAlias.set(m.alias, [...(byAlias.get(m.alias) ?? []), m.member]);
    return aliases.map((alias) => ({ alias, members: byAlias.get(alias.name) ?? [] }));
  }

  async find(name: string): Promise<PrincipalAliasRow | null> {
    const alias = await this.aliases.findOneBy({ name });
    if (!alias) return null;
    const members = await this.members.find({ where: { alias: name }, order: { member: 'ASC' } });
    return { alias, members: members.map((m) => m.member) };
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.aliases.delete({ name });
    return (result.affected ?? 0) > 0;
  }

  async setEnabled(name: string, enabled: boolean): Promise<boolean> {
    const result = await this.aliases.update({ name }, { enabled });
    return (result.affected ?? 0) > 0;
  }

  /** Adds a member; false when the person already stands behind the alias. */
  async addMember(name: string, member: string, addedBy: string): Promise<boolean> {
    const result = await this.members
      .createQueryBuilder()
      .insert()
      .values({ alias: name, member, addedBy })
      .orIgnore()
      .returning('member')
      .execute();
    return result.raw.length > 0;
  }

  async removeMember(name: string, member: string): Promise<boolean> {
    const result = await this.members.delete({ alias: name, member });
    return (result.affected ?? 0) > 0;
  }

  /** Names of the enabled aliases a person stands behind, sorted. */
  async enabledAliasesOf(person: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ name: string }[]>(
      `SELECT a.name FROM principal_alias_members m JOIN principal_aliases a ON a.name = m.alias
       WHERE m.member = $1 AND a.enabled ORDER BY a.name`,
      [person],
    );
    return rows.map((r) => r.name);
  }

  /** `enabledAliasesOf` for many people in one query: person -> sorted alias names. */
  async enabledAliasesOfMany(people: readonly string[]): Promise<Map<string, string[]>> {
    const byPerson = new Map<string, string[]>(people.map((p) => [p, []]));
    if (people.length === 0) return byPerson;
    const rows = await this.dataSource.query<{ member: string; name: string }[]>(
      `SELECT m.member, a.name FROM principal_alias_members m
         JOIN principal_aliases a ON a.name = m.alias
       WHERE m.member = ANY($1::varchar[]) AND a.enabled ORDER BY m.member, a.name`,
      [people],
    );
    for (const r of rows) byPerson.get(r.member)?.push(r.name);
    return byPerson;
  }

  /** Active raw keys owned by the alias's members (whether or not the alias is enabled). */
  async activeKeysOf(name: string): Promise<AliasKeyRow[]> {
    const rows = await this.dataSource.query<
      {
        id: string;
        owner: string;
        key_type: string;
        public_key: Buffer;
        fingerprint: string;
        comment: string | null;
        serial: string | null;
        approved_at: Date | null;
      }[]
    >(
      `SELECT k.id, k.owner, k.key_type, k.public_key, k.fingerprint, k.comment, d.serial,
              k.approved_at
       FROM principal_alias_members m
       JOIN ssh_keys k ON k.owner = m.member AND k.state = 'active'
       LEFT JOIN devices d ON d.id = k.device_id
       WHERE m.alias = $1
       ORDER BY k.owner, k.created_at, k.id`,
      [name],
    );
    return rows.map((r) => ({
      id: r.id,
      owner: r.owner,
      keyType: r.key_type,
      publicKey: r.public_key,
      fingerprint: r.fingerprint,
      comment: r.comment,
      deviceSerial: r.serial,
      approvedAt: r.approved_at,
    }));
  }
}
