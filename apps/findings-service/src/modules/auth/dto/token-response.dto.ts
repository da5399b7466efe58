import { ApiProperty } from '@nestjs/swagger';
import { UserDto } from '../../users/dto/user.dto';

/** Answer of login and refresh; the refresh token travels only in the `findsvc_refresh` cookie. */
export class TokenResponseDto {
  @ApiProperty({ description: 'HS256 JWT for `Authorization: Bearer`' }) access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ description: 'Access token lifetime in seconds', example: 900 })
  expires_in!: number;
  @ApiProperty({ type: UserDto }) user!: UserDto;
}
