import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { toPem } from '@platform/pki';
import type { K8sClusterEntity, K8sGroupMapping } from '../k8s-cluster.entity';

export const K8S_CLUSTER_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** Kubernetes group names: printable ASCII without `,`/`+`/`=`-style DN specials or controls. */
export const K8S_GROUP_PATTERN = /^[A-Za-z0-9:._@-]{1,128}$/;
export const MAX_GROUP_MAPPINGS = 200;
const MAX_CA_BUNDLE_CHARS = 64 * 1024;
const MAPPING_SOURCES = ['any', 'role', 'alias', 'user'] as const;
const NAME_RULE = 'lower-case letters, digits and -, starting and ending with a letter or digit';

export class K8sGroupMappingDto implements K8sGroupMapping {
  @ApiProperty({
    enum: MAPPING_SOURCES,
    description:
      '`any`: every caller; `role`: holders of a service role; `alias`: members of a principal alias; `user`: one person (email)',
  })
  @IsIn(MAPPING_SOURCES)
  source!: K8sGroupMapping['source'];

  @ApiProperty({
    example: 'cert-admin',
    maxLength: 320,
    description: 'role, alias or email; empty for `any`',
  })
  @IsString()
  @MaxLength(320)
  value!: string;

  @ApiProperty({
    example: 'system:masters',
    description: 'Kubernetes group (O= of the certificate)',
  })
  @IsString()
  @Matches(K8S_GROUP_PATTERN, {
    message: 'group must be 1 to 128 of letters, digits and : . _ @ -',
  })
  group!: string;
}

/** Fields both writes take as optional (the create's defaults apply when left out). */
class K8sClusterOptionsDto {
  @ApiPropertyOptional({ type: [K8sGroupMappingDto], maxItems: MAX_GROUP_MAPPINGS })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_GROUP_MAPPINGS)
  @ValidateNested({ each: true })
  @Type(() => K8sGroupMappingDto)
  groups?: K8sGroupMappingDto[];

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

/**
 * A partial update. Not a parent of the create DTO: class-validator merges a parent's
 * decorators into the child, and `@OptionalNotNull` here would make the create's required
 * fields optional (a create without `name` reached the service: 500).
 */
export class UpdateK8sClusterDto extends K8sClusterOptionsDto {
  @ApiPropertyOptional({ example: 'prod-eu', maxLength: 63, description: NAME_RULE })
  @OptionalNotNull()
  @IsString()
  @MaxLength(63)
  @Matches(K8S_CLUSTER_NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  name?: string;

  @ApiPropertyOptional({ example: 'https://k8s.example.com:6443', maxLength: 2048 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  server_url?: string;

  @ApiPropertyOptional({
    description:
      'PEM of the CA certificates the API server presents (kubeconfig certificate-authority-data)',
    maxLength: MAX_CA_BUNDLE_CHARS,
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_CA_BUNDLE_CHARS)
  ca_bundle?: string;
}

export class CreateK8sClusterDto extends K8sClusterOptionsDto {
  @ApiProperty({ example: 'prod-eu', maxLength: 63, description: NAME_RULE })
  @IsString()
  @MaxLength(63)
  @Matches(K8S_CLUSTER_NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  name!: string;

  @ApiProperty({ example: 'https://k8s.example.com:6443', maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  server_url!: string;

  @ApiProperty({
    description: 'PEM of the CA certificates the API server presents',
    maxLength: MAX_CA_BUNDLE_CHARS,
  })
  @IsString()
  @MaxLength(MAX_CA_BUNDLE_CHARS)
  ca_bundle!: string;
}

export class K8sClusterDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() server_url!: string;
  @ApiProperty() ca_bundle!: string;
  @ApiProperty({
    description:
      "PEM chain (issuing CA, then root) of the cluster's client-certificate CA: the API server's --client-ca-file",
  })
  client_ca_pem!: string;
  @ApiProperty({ type: [K8sGroupMappingDto] }) groups!: K8sGroupMappingDto[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(row: K8sClusterEntity): K8sClusterDto {
    return {
      id: row.id,
      name: row.name,
      server_url: row.serverUrl,
      ca_bundle: row.caBundle,
      client_ca_pem:
        toPem('CERTIFICATE', row.clientCaIssuingDer) + toPem('CERTIFICATE', row.clientCaRootDer),
      groups: row.groupMappings.map((m) => ({ source: m.source, value: m.value, group: m.group })),
      enabled: row.enabled,
      created_by: row.createdBy,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

export class K8sClusterListDto {
  @ApiProperty({ type: [K8sClusterDto] }) items!: K8sClusterDto[];
}
