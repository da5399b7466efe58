import { ApiProperty } from '@nestjs/swagger';
import { HUMAN_ROLES, type HumanRole } from '../../../app/access/roles';
import type { Session } from '../auth.service';

export class MeDto {
  @ApiProperty() email!: string;
  @ApiProperty({
    enum: HUMAN_ROLES,
    nullable: true,
    description: 'strongest role; null without roles',
  })
  role!: HumanRole | null;
  @ApiProperty({ enum: HUMAN_ROLES, isArray: true }) roles!: HumanRole[];
}

export class TokenDto {
  @ApiProperty() access_token!: string;
  @ApiProperty({ description: 'also set as an httpOnly cookie' }) refresh_token!: string;
  @ApiProperty({ example: 'Bearer' }) token_type!: 'Bearer';
  @ApiProperty({ description: 'access token lifetime in seconds' }) expires_in!: number;
  @ApiProperty({ type: MeDto }) user!: MeDto;

  static from(session: Session): TokenDto {
    return {
      access_token: session.accessToken,
      refresh_token: session.refresh.token,
      token_type: 'Bearer',
      expires_in: session.expiresIn,
      user: { email: session.user.email, role: session.user.role, roles: [...session.user.roles] },
    };
  }
}

export class OidcConfigDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ nullable: true, type: String }) issuer!: string | null;
  @ApiProperty({ nullable: true, type: String }) client_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) authorization_endpoint!: string | null;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ enum: ['S256'] }) code_challenge_method!: 'S256';
}

export class AuthConfigDto {
  @ApiProperty() local_enabled!: boolean;
  @ApiProperty({ type: OidcConfigDto }) oidc!: OidcConfigDto;
}
