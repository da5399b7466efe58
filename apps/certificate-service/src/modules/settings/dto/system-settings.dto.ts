import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PRINCIPAL_NAME_PATTERN } from '../../../app/domain/principal-name';
import { isNetwork, KEYHOLDER_TOKEN_GATES, type KeyholderTokenGate } from '../keyholder.policy';
import type { SystemSettings } from '../policy-settings.service';
import { SSH_KEY_BINDING_STEPS, type SshKeyBindingStep } from '../ssh-key.policy';
import { K8S_PROMPT_STEPS, type K8sPromptStep } from '../../../app/config/certsvc-config';
import { APP_ATTEST_ENFORCEMENT_STEPS, type AppAttestEnforcement } from '../app-attest.policy';

export const MAX_ALLOWED_NETWORKS = 256;
export const MAX_AUTO_APPROVE_PRINCIPALS = 256;

@ValidatorConstraint({ name: 'isNetwork' })
class IsNetworkConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isNetwork(value);
  }
  defaultMessage(): string {
    return 'each entry must be an IPv4 or IPv6 address or CIDR block (10.0.0.0/8, 2001:db8::/32)';
  }
}

/** Changes to the system settings: only the fields sent change. */
export class PutSystemSettingsDto {
  @ApiPropertyOptional({
    enum: SSH_KEY_BINDING_STEPS,
    description:
      'SSH key binding to a person: off (do not check), record (check and record the verdict), enforce (reject on contradiction or failure to check)',
  })
  @OptionalNotNull()
  @IsIn(SSH_KEY_BINDING_STEPS)
  ssh_key_binding?: SshKeyBindingStep;

  @ApiPropertyOptional({
    description:
      'auto-approval of registered SSH keys: any device with a valid enrollment token gets access under every login of ssh_key_auto_approve_principals',
  })
  @OptionalNotNull()
  @IsBoolean()
  ssh_key_auto_approve?: boolean;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_AUTO_APPROVE_PRINCIPALS })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_AUTO_APPROVE_PRINCIPALS)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(PRINCIPAL_NAME_PATTERN, { each: true })
  ssh_key_auto_approve_principals?: string[];

  @ApiPropertyOptional({ enum: KEYHOLDER_TOKEN_GATES })
  @OptionalNotNull()
  @IsIn(KEYHOLDER_TOKEN_GATES)
  keyholder_token_gate?: KeyholderTokenGate;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_ALLOWED_NETWORKS,
    example: ['10.20.0.0/16', '127.0.0.1'],
    description: 'networks target servers call the key-holder API from; empty refuses everyone',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ALLOWED_NETWORKS)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  @Validate(IsNetworkConstraint, { each: true })
  keyholder_allowed_networks?: string[];

  @ApiPropertyOptional({
    enum: K8S_PROMPT_STEPS,
    description:
      'prompt-on-issuance step for cluster access (Kubernetes credential broker): off, ask_once_per_window (default), ask_every_time, raised (refused when no session can ask the person)',
  })
  @OptionalNotNull()
  @IsIn(K8S_PROMPT_STEPS)
  k8s_prompt_step?: K8sPromptStep;

  @ApiPropertyOptional({
    enum: APP_ATTEST_ENFORCEMENT_STEPS,
    description:
      'app attestation on macOS enrollments: off (default), advisory (verdict recorded), required (refused without a verified attestation; Macs before macOS 27 always refused)',
  })
  @OptionalNotNull()
  @IsIn(APP_ATTEST_ENFORCEMENT_STEPS)
  app_attest_enforcement?: AppAttestEnforcement;
}

export class SystemSettingsDto {
  @ApiProperty({ enum: SSH_KEY_BINDING_STEPS }) ssh_key_binding!: SshKeyBindingStep;
  @ApiProperty() ssh_key_auto_approve!: boolean;
  @ApiProperty({ type: [String] }) ssh_key_auto_approve_principals!: string[];
  @ApiProperty({ enum: KEYHOLDER_TOKEN_GATES }) keyholder_token_gate!: KeyholderTokenGate;
  @ApiProperty({ type: [String] }) keyholder_allowed_networks!: string[];
  @ApiProperty({ enum: K8S_PROMPT_STEPS }) k8s_prompt_step!: K8sPromptStep;
  @ApiProperty({ enum: APP_ATTEST_ENFORCEMENT_STEPS })
  app_attest_enforcement!: AppAttestEnforcement;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) updated_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated_by!: string | null;

  static from(settings: SystemSettings): SystemSettingsDto {
    const latest = [settings.sshKeys, settings.keyholder, settings.k8s, settings.appAttest]
      .map((p) => ({
        at: p.updatedAt?.getTime() ?? -1,
        updatedAt: p.updatedAt,
        updatedBy: p.updatedBy,
      }))
      .sort((a, b) => b.at - a.at)[0];
    return {
      ssh_key_binding: settings.sshKeys.value.binding,
      ssh_key_auto_approve: settings.sshKeys.value.autoApprove,
      ssh_key_auto_approve_principals: settings.sshKeys.value.autoApprovePrincipals,
      keyholder_token_gate: settings.keyholder.value.tokenGate,
      keyholder_allowed_networks: settings.keyholder.value.allowedNetworks,
      k8s_prompt_step: settings.k8s.value.promptStep,
      app_attest_enforcement: settings.appAttest.value.enforcement,
      updated_at: latest?.updatedAt?.toISOString() ?? null,
      updated_by: latest?.updatedBy ?? null,
    };
  }
}
