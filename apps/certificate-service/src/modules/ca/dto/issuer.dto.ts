import { ApiProperty } from '@nestjs/swagger';
import { X509_PURPOSES, type X509Purpose } from '@platform/pki';

export class PurposeIssuerDto {
  @ApiProperty({ enum: X509_PURPOSES }) purpose!: X509Purpose;
  @ApiProperty({ description: '`built_in`, `scep` or `est`' }) kind!: string;
  @ApiProperty({ description: 'issuance may answer `ca_pending`' }) async!: boolean;
  @ApiProperty() supports_revoke!: boolean;
  @ApiProperty() supports_crl!: boolean;
  @ApiProperty({
    enum: ['profile', 'default', 'override'],
    description:
      '`profile`: a stored issuer profile; `default`: none stored, CERTSVC_ISSUER applies',
  })
  source!: 'profile' | 'default' | 'override';
  @ApiProperty({ description: 'false: approvals of this purpose fail (issuer_not_configured)' })
  configured!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'why the purpose cannot issue' })
  problem!: string | null;
}

export class IssuerDto {
  @ApiProperty({ description: 'issuer of the machine purpose `wifi`' }) kind!: string;
  @ApiProperty() async!: boolean;
  @ApiProperty() supports_revoke!: boolean;
  @ApiProperty() supports_crl!: boolean;
  @ApiProperty({ enum: X509_PURPOSES, isArray: true }) purposes!: X509Purpose[];
  @ApiProperty({ type: [PurposeIssuerDto] }) by_purpose!: PurposeIssuerDto[];
}
