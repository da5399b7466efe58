import { ApiProperty } from '@nestjs/swagger';

/** A single sign-on provider with the address its login button opens (none configured yet). */
export class AuthProviderDto {
  @ApiProperty({ example: 'corporate-oidc' }) id!: string;
  @ApiProperty({ example: 'Corporate SSO' }) name!: string;
  @ApiProperty({ enum: ['oidc'] }) type!: 'oidc';
  @ApiProperty({ example: '/api/v1/auth/sso/corporate-oidc/login' }) login_url!: string;
}

export class AuthConfigDto {
  @ApiProperty({
    enum: ['local', 'sso', 'mixed', 'none'],
    description: 'Which sign-in options the UI shows',
  })
  login_mode!: 'local' | 'sso' | 'mixed' | 'none';
  @ApiProperty() local_enabled!: boolean;
  @ApiProperty({ type: [AuthProviderDto] }) providers!: AuthProviderDto[];
}
