import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';

export class SetUserEnabledDto {
  @ApiProperty({
    description: 'false: sign-in refused, refresh tokens revoked, access tokens refused at once',
  })
  @IsBoolean()
  enabled!: boolean;
}
