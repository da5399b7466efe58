import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @ApiProperty({ description: 'Email of the local user', example: 'admin@example.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  login!: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password!: string;
}
