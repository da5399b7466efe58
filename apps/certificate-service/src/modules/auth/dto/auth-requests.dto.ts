import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PASSWORD_MIN_LENGTH } from '../../users/dto/user-requests.dto';

export class LocalLoginDto {
  @ApiProperty({ example: 'admin@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password!: string;
}

export class RefreshDto {
  @ApiPropertyOptional({ description: 'or the httpOnly cookie set at sign-in' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(256)
  refresh_token?: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(256)
  current_password!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(256)
  new_password!: string;
}

/** What the SPA got back from the identity provider and the secrets of its request. */
export class OidcCallbackDto {
  @ApiProperty({ description: 'authorization code from the redirect' })
  @IsString()
  @MaxLength(2048)
  code!: string;

  @ApiProperty({ description: 'PKCE verifier of the authorization request (S256)' })
  @IsString()
  @MaxLength(256)
  code_verifier!: string;

  @ApiProperty({
    description:
      'redirect_uri of the authorization request, unchanged: one of the callback pages the service allows (CERTSVC_OIDC_REDIRECT_URIS), else 400 oidc_redirect_uri_not_allowed',
  })
  @IsString()
  @MaxLength(2048)
  redirect_uri!: string;

  @ApiPropertyOptional({
    description:
      'nonce of the authorization request; required while single sign-on is on (the ID token must carry it). The SPA checks `state` itself.',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(256)
  nonce?: string;
}
