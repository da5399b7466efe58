import { ApiProperty } from '@nestjs/swagger';
import { EAP_METHODS, NETWORK_KINDS, type EapMethod, type NetworkKind } from '../network.entity';
import type { AgentNetwork } from '../agent-networks.service';

/** One network profile as an agent receives it in `POST /api/v1/enroll/purposes`. */
export class AgentNetworkDto {
  @ApiProperty({ format: 'uuid', description: 'stable: the agent replaces the profile it made' })
  id!: string;
  @ApiProperty({ enum: NETWORK_KINDS }) kind!: NetworkKind;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Wi-Fi only' }) ssid!: string | null;
  @ApiProperty({ description: 'Wi-Fi only: probe for the SSID' }) hidden!: boolean;
  @ApiProperty({ enum: EAP_METHODS }) eap_method!: EapMethod;
  @ApiProperty({ description: 'purpose whose certificate to present' }) purpose!: string;
  @ApiProperty({
    type: [String],
    description: 'names the RADIUS server certificate must carry; empty: the name is not checked',
  })
  radius_server_names!: string[];
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'CAs to trust for the RADIUS server (PEM, issuing CA first, root last): the built-in CA; null when an external issuer serves wifi (trust the chain delivered with the certificate)',
  })
  ca_chain_pem!: string | null;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(n: AgentNetwork): AgentNetworkDto {
    return {
      id: n.id,
      kind: n.kind,
      name: n.name,
      ssid: n.ssid,
      hidden: n.hidden,
      eap_method: n.eapMethod,
      purpose: n.purpose,
      radius_server_names: n.radiusServerNames,
      ca_chain_pem: n.caChainPem,
      updated_at: n.updatedAt.toISOString(),
    };
  }
}
