import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';

export class CreateUserDto {
  @ApiProperty({ example: 'bob@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiPropertyOptional({ example: 'Bob', description: 'Defaults to the local part of the email' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  display_name?: string;

  @ApiPropertyOptional({
    description: 'Local password (min 12 characters); omit for SSO-only users',
    minLength: 12,
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(12)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  is_admin?: boolean;
}
