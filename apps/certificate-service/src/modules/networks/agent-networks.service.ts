import { Injectable } from '@nestjs/common';
import { toPem } from '@platform/pki';
import type { Purpose } from '../../app/domain/purposes';
import { IssuerRegistry } from '../ca/issuer-registry';
import type { EapMethod, NetworkEntity, NetworkKind } from './network.entity';
import { NetworksRepository } from './networks.repository';

/** What a supplicant needs to join one network (field `networks` of `POST /enroll/purposes`). */
export interface AgentNetwork {
  id: string;
  kind: NetworkKind;
  name: string;
  ssid: string | null;
  hidden: boolean;
  eapMethod: EapMethod;
  purpose: string;
  radiusServerNames: string[];
  /** CA chain (issuing first, root last) of the built-in CA; null under an external issuer. */
  caChainPem: string | null;
  updatedAt: Date;
}

/** The device as far as its network profiles go. */
export interface AgentNetworksDevice {
  platform: string | null;
  effectivePurposes: readonly Purpose[];
}

/** `platform` as the agent reported it at enroll: macOS under any of its usual names. */
export function isMacosPlatform(platform: string | null): boolean {
  return platform !== null && /^(macos|mac ?os ?x?|osx|darwin)\b/i.test(platform.trim());
}

/**
 * Networks an agent installs: enabled ones, minus those whose opt-out applies to the
 * device's platform (`macos_agent_profile_disabled` on macOS, `agent_profile_disabled`
 * elsewhere), and none at all when the device may not hold a `wifi` certificate.
 */
@Injectable()
export class AgentNetworksService {
  constructor(
    private readonly networks: NetworksRepository,
    private readonly registry: IssuerRegistry,
  ) {}

  async forDevice(device: AgentNetworksDevice): Promise<AgentNetwork[]> {
    const active = await this.networks.listActive();
    const macos = isMacosPlatform(device.platform);
    const chosen = active.filter(
      (n) =>
        device.effectivePurposes.includes(n.purpose as Purpose) &&
        !(macos ? n.macosAgentProfileDisabled : n.agentProfileDisabled),
    );
    if (chosen.length === 0) return [];
    const caChainPem = await this.wifiCaChainPem();
    return chosen.map((n) => toAgentNetwork(n, caChainPem));
  }

  /** PEM chain of the built-in CA when it issues `wifi`; null for an external issuer. */
  private async wifiCaChainPem(): Promise<string | null> {
    await this.registry.ensureFresh();
    const issuer = this.registry.forPurpose('wifi');
    let builtIn;
    try {
      builtIn = this.registry.builtIn();
    } catch {
      return null;
    }
    if (issuer !== builtIn) return null;
    return this.registry
      .builtInChain()
      .map((der) => toPem('CERTIFICATE', der))
      .join('');
  }
}

function toAgentNetwork(n: NetworkEntity, caChainPem: string | null): AgentNetwork {
  return {
    id: n.id,
    kind: n.kind,
    name: n.name,
    ssid: n.ssid,
    hidden: n.hidden,
    eapMethod: n.eapMethod,
    purpose: n.purpose,
    radiusServerNames: n.radiusServerNames,
    caChainPem,
    updatedAt: n.updatedAt,
  };
}
