import { ApiProperty } from '@nestjs/swagger';
import { X509_PURPOSES, type X509Purpose } from '@platform/pki';

export class PurposeIssuerDto {
  @ApiProperty({ enum: X509_PURPOSES }) purpose!: X509Purpose;
  @ApiProperty({ description: '`built_in`; later `scep`, `external`' }) kind!: string;
  @ApiProperty({ description: 'issuance may answer `ca_pending`' }) async!: boolean;
  @ApiProperty() supports_revoke!: boolean;
  @ApiProperty() supports_crl!: boolean;
}

export class IssuerDto {
  @ApiProperty({ description: 'issuer of the machine purpose `wifi`' }) kind!: string;
  @ApiProperty() async!: boolean;
  @ApiProperty() supports_revoke!: boolean;
  @ApiProperty() supports_crl!: boolean;
  @ApiProperty({ enum: X509_PURPOSES, isArray: true }) purposes!: X509Purpose[];
  @ApiProperty({ type: [PurposeIssuerDto] }) by_purpose!: PurposeIssuerDto[];
}
