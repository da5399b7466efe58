import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import {
  EAP_METHODS,
  NETWORK_KINDS,
  type EapMethod,
  type NetworkEntity,
  type NetworkKind,
} from '../network.entity';

export const MAX_RADIUS_SERVER_NAMES = 16;
/** A DNS name: dot-separated labels of letters, digits and inner hyphens; 253 characters at most. */
export const RADIUS_NAME_PATTERN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// eslint-disable-next-line no-control-regex
const NAME_PATTERN = /^(?=.*\S)[^\u0000-\u001f\u007f-\u009f]+$/;

const RADIUS_NAMES_DOC: ApiPropertyOptions = {
  type: [String],
  example: ['radius1.corp.example'],
  maxItems: MAX_RADIUS_SERVER_NAMES,
  description:
    'DNS names the RADIUS server certificate must carry (compared case-insensitively, stored lower-case); an empty array means the name is not checked: any server whose certificate chains to a trusted CA is accepted',
};

function RadiusNames(): PropertyDecorator {
  return (target, key) => {
    IsArray()(target, key);
    ArrayMaxSize(MAX_RADIUS_SERVER_NAMES)(target, key);
    IsString({ each: true })(target, key);
    MaxLength(253, { each: true })(target, key);
    Matches(RADIUS_NAME_PATTERN, {
      each: true,
      message: 'each RADIUS server name must be a DNS name (letters, digits, hyphens, dots)',
    })(target, key);
  };
}

export class CreateNetworkDto {
  @ApiProperty({ enum: NETWORK_KINDS })
  @IsIn(NETWORK_KINDS)
  kind!: NetworkKind;

  @ApiProperty({ example: 'Corporate Wi-Fi', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(NAME_PATTERN, { message: 'name must be printable text, not only spaces' })
  name!: string;

  @ApiPropertyOptional({
    example: 'CorpNet',
    description: 'Wi-Fi only and required there: 1 to 32 bytes of UTF-8 (network_ssid_invalid)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  ssid?: string;

  @ApiPropertyOptional({ description: 'Wi-Fi only: the SSID is not broadcast', default: false })
  @OptionalNotNull()
  @IsBoolean()
  hidden?: boolean;

  @ApiPropertyOptional({ enum: EAP_METHODS, default: 'eap-tls' })
  @OptionalNotNull()
  @IsIn(EAP_METHODS)
  eap_method?: EapMethod;

  @ApiPropertyOptional(RADIUS_NAMES_DOC)
  @OptionalNotNull()
  @RadiusNames()
  radius_server_names?: string[];

  @ApiPropertyOptional({ default: false, description: 'agents on Windows and Linux skip it' })
  @OptionalNotNull()
  @IsBoolean()
  agent_profile_disabled?: boolean;

  @ApiPropertyOptional({ default: false, description: 'agents on macOS skip it' })
  @OptionalNotNull()
  @IsBoolean()
  macos_agent_profile_disabled?: boolean;
}

export class SetNetworkFlagDto {
  @ApiProperty({ description: 'true switches the profile off for these agents' })
  @IsBoolean()
  disabled!: boolean;
}

export class SetRadiusServerNamesDto {
  @ApiProperty(RADIUS_NAMES_DOC)
  @RadiusNames()
  radius_server_names!: string[];
}

export class NetworkDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: NETWORK_KINDS }) kind!: NetworkKind;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) ssid!: string | null;
  @ApiProperty() hidden!: boolean;
  @ApiProperty({ enum: EAP_METHODS }) eap_method!: EapMethod;
  @ApiProperty({ description: 'purpose whose certificate the supplicant presents' })
  purpose!: string;
  @ApiProperty({ type: [String] }) radius_server_names!: string[];
  @ApiProperty() agent_profile_disabled!: boolean;
  @ApiProperty() macos_agent_profile_disabled!: boolean;
  @ApiProperty({ description: 'false once disabled (soft delete)' }) enabled!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) disabled_at!: string | null;
  @ApiProperty() created_by!: string;
  @ApiProperty() updated_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(n: NetworkEntity): NetworkDto {
    return {
      id: n.id,
      kind: n.kind,
      name: n.name,
      ssid: n.ssid,
      hidden: n.hidden,
      eap_method: n.eapMethod,
      purpose: n.purpose,
      radius_server_names: n.radiusServerNames,
      agent_profile_disabled: n.agentProfileDisabled,
      macos_agent_profile_disabled: n.macosAgentProfileDisabled,
      enabled: n.disabledAt === null,
      disabled_at: n.disabledAt?.toISOString() ?? null,
      created_by: n.createdBy,
      updated_by: n.updatedBy,
      created_at: n.createdAt.toISOString(),
      updated_at: n.updatedAt.toISOString(),
    };
  }
}

export class NetworkListDto {
  @ApiProperty({ type: [NetworkDto] }) items!: NetworkDto[];
}

/** Columns of `GET /api/v1/admin/networks.csv`, in order (the NetworkDto fields). */
export const NETWORK_CSV_COLUMNS = [
  'id',
  'kind',
  'name',
  'ssid',
  'hidden',
  'eap_method',
  'purpose',
  'radius_server_names',
  'agent_profile_disabled',
  'macos_agent_profile_disabled',
  'enabled',
  'disabled_at',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
] as const;

/** One CSV row of a network; RADIUS names joined with a space (DNS names hold none). */
export function networkCsvRow(n: NetworkDto): (string | boolean | null)[] {
  return NETWORK_CSV_COLUMNS.map((column) =>
    column === 'radius_server_names' ? n.radius_server_names.join(' ') : n[column],
  );
}
