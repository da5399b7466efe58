import { CertsvcError } from '../../app/errors/certsvc-error';

export type SshKeysErrorCode =
  | 'ssh_key_invalid'
  | 'ssh_key_type_unsupported'
  | 'ssh_key_not_found'
  | 'ssh_key_not_pending'
  | 'ssh_key_not_revocable'
  | 'ssh_key_revoked'
  | 'ssh_key_in_use'
  | 'ssh_key_binding_rejected'
  | 'device_not_found'
  | 'device_blocked'
  | 'rate_limited';

const MESSAGES: Record<SshKeysErrorCode, string> = {
  ssh_key_invalid: 'the SSH public key is malformed',
  ssh_key_type_unsupported: 'the SSH key type is not supported',
  ssh_key_not_found: 'SSH key not found',
  ssh_key_not_pending: 'only a pending SSH key can be approved or rejected',
  ssh_key_not_revocable: 'the SSH key is already revoked or rejected',
  ssh_key_revoked: 'this SSH key was revoked and cannot be registered again',
  ssh_key_in_use: 'this SSH key is registered by another device',
  ssh_key_binding_rejected:
    'the SSH key cannot be bound to the device owner (binding check: contradiction or no proof)',
  device_not_found: 'device not found',
  device_blocked: 'the device is blocked',
  rate_limited: 'too many requests; try again later',
};

export class SshKeysError extends CertsvcError<SshKeysErrorCode> {
  constructor(code: SshKeysErrorCode, message?: string, details?: Record<string, unknown>) {
    super(code, message ?? MESSAGES[code], details);
  }
}
