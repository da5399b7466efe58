import { ApiProperty } from '@nestjs/swagger';

export class SshCaPublicKeyDto {
  @ApiProperty({
    example: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI... certsvc-ssh-user-ca',
    description: 'authorized-keys line for sshd `TrustedUserCAKeys`',
  })
  public_key!: string;
  @ApiProperty({ example: 'ssh-ed25519' }) key_type!: string;
  @ApiProperty({ example: 'SHA256:2f3...', description: 'as `ssh-keygen -l` prints it' })
  fingerprint!: string;
}
