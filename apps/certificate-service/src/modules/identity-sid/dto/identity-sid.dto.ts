import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { DeviceCredentialsDto } from '../../enrollment/dto/enroll.dto';
import { UPN_MAX_LENGTH } from '../upn';

export class IdentitySidRequestDto extends DeviceCredentialsDto {
  @ApiProperty({
    example: 'alice@corp.example',
    maxLength: UPN_MAX_LENGTH,
    description: 'user principal name: name@suffix, one @, no spaces or control characters',
  })
  @IsString()
  @MaxLength(UPN_MAX_LENGTH)
  upn!: string;
}

export class IdentitySidResponseDto {
  @ApiProperty() upn!: string;
  @ApiProperty({ example: 'S-1-5-21-3623811015-3361044348-30300820-1013' }) sid!: string;
}
