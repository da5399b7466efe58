import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';

export class CreateServiceAccountDto {
  @ApiProperty({ example: 'ci-uploader', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  description?: string;
}
