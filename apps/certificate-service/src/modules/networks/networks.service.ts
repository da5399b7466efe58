import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { actorLabel, type Actor } from '../../app/access/actor';
import type { AuditAction } from '../audit/audit-actions';
import { AuditService } from '../audit/audit.service';
import type { EapMethod, NetworkEntity, NetworkKind } from './network.entity';
import { NetworksError } from './networks.errors';
import { ActiveWiredConflict, NetworksRepository, type NetworkChange } from './networks.repository';

export interface NetworkInput {
  kind: NetworkKind;
  name: string;
  ssid?: string;
  hidden?: boolean;
  eapMethod?: EapMethod;
  radiusServerNames?: string[];
  agentProfileDisabled?: boolean;
  macosAgentProfileDisabled?: boolean;
}

const SSID_MAX_BYTES = 32;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** A Wi-Fi SSID as the service stores it: 1 to 32 bytes of UTF-8, no control characters. */
export function isValidSsid(ssid: string): boolean {
  const bytes = Buffer.byteLength(ssid, 'utf8');
  return bytes >= 1 && bytes <= SSID_MAX_BYTES && !CONTROL_CHARACTERS.test(ssid);
}

/** Lower-cased, without duplicates, in the order given. */
export function normalizeRadiusNames(names: readonly string[]): string[] {
  return [...new Set(names.map((n) => n.toLowerCase()))];
}

/** Corporate Wi-Fi and wired 802.1X profiles (cert-admin writes; every change audited). */
@Injectable()
export class NetworksService {
  constructor(
    private readonly networks: NetworksRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<NetworkEntity[]> {
    return this.networks.list();
  }

  async get(id: string): Promise<NetworkEntity> {
    const network = isUUID(id, 'loose') ? await this.networks.findById(id) : null;
    if (!network) throw new NetworksError('network_not_found');
    return network;
  }

  async create(actor: Actor, input: NetworkInput): Promise<NetworkEntity> {
    const wifi = input.kind === 'wifi';
    if (wifi ? input.ssid === undefined || !isValidSsid(input.ssid) : input.ssid !== undefined) {
      throw new NetworksError('network_ssid_invalid');
    }
    if (!wifi && input.hidden) throw new NetworksError('network_ssid_invalid');
    const by = actorLabel(actor);
    const created = await this.guardWired(() =>
      this.networks.create({
        kind: input.kind,
        name: input.name,
        ssid: wifi ? (input.ssid ?? null) : null,
        hidden: wifi ? (input.hidden ?? false) : false,
        eapMethod: input.eapMethod ?? 'eap-tls',
        radiusServerNames: normalizeRadiusNames(input.radiusServerNames ?? []),
        agentProfileDisabled: input.agentProfileDisabled ?? false,
        macosAgentProfileDisabled: input.macosAgentProfileDisabled ?? false,
        createdBy: by,
        updatedBy: by,
      }),
    );
    await this.record('network.create', actor, created, {
      kind: created.kind,
      name: created.name,
      ssid: created.ssid,
      eap_method: created.eapMethod,
      radius_server_names: created.radiusServerNames,
    });
    return created;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const network = await this.get(id);
    if (!(await this.networks.delete(id))) throw new NetworksError('network_not_found');
    await this.record('network.delete', actor, network, {
      kind: network.kind,
      name: network.name,
      ssid: network.ssid,
    });
  }

  async disable(actor: Actor, id: string): Promise<NetworkEntity> {
    const before = await this.get(id);
    if (before.disabledAt) return before;
    const after = await this.change(actor, id, { disabledAt: new Date() });
    await this.record('network.disable', actor, after);
    return after;
  }

  async restore(actor: Actor, id: string): Promise<NetworkEntity> {
    const before = await this.get(id);
    if (!before.disabledAt) return before;
    const after = await this.change(actor, id, { disabledAt: null });
    await this.record('network.restore', actor, after);
    return after;
  }

  async setAgentProfileDisabled(
    actor: Actor,
    id: string,
    disabled: boolean,
  ): Promise<NetworkEntity> {
    const before = await this.get(id);
    if (before.agentProfileDisabled === disabled) return before;
    const after = await this.change(actor, id, { agentProfileDisabled: disabled });
    await this.record('network.agent_profile_change', actor, after, {
      old: before.agentProfileDisabled,
      new: disabled,
    });
    return after;
  }

  async setMacosAgentProfileDisabled(
    actor: Actor,
    id: string,
    disabled: boolean,
  ): Promise<NetworkEntity> {
    const before = await this.get(id);
    if (before.macosAgentProfileDisabled === disabled) return before;
    const after = await this.change(actor, id, { macosAgentProfileDisabled: disabled });
    await this.record('network.macos_agent_profile_change', actor, after, {
      old: before.macosAgentProfileDisabled,
      new: disabled,
    });
    return after;
  }

  async setRadiusServerNames(
    actor: Actor,
    id: string,
    names: readonly string[],
  ): Promise<NetworkEntity> {
    const before = await this.get(id);
    const normalized = normalizeRadiusNames(names);
    if (sameList(before.radiusServerNames, normalized)) return before;
    const after = await this.change(actor, id, { radiusServerNames: normalized });
    await this.record('network.radius_server_names_change', actor, after, {
      old: before.radiusServerNames,
      new: normalized,
    });
    return after;
  }

  private async change(
    actor: Actor,
    id: string,
    change: Omit<NetworkChange, 'updatedBy'>,
  ): Promise<NetworkEntity> {
    const after = await this.guardWired(() =>
      this.networks.update(id, { ...change, updatedBy: actorLabel(actor) }),
    );
    if (!after) throw new NetworksError('network_not_found');
    return after;
  }

  private async guardWired<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof ActiveWiredConflict) {
        throw new NetworksError('network_wired_active_exists');
      }
      throw error;
    }
  }

  private record(
    action: AuditAction,
    actor: Actor,
    network: NetworkEntity,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    return this.audit.record({
      action,
      actor,
      target: network.id,
      details: { kind: network.kind, name: network.name, ...details },
    });
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
