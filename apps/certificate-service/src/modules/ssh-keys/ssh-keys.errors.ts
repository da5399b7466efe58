import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

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

export class SshKeysError extends CertsvcError<SshKeysErrorCode> {
  constructor(code: SshKeysErrorCode, message?: string, details?: Record<string, unknown>) {
    super(code, message ?? certsvcErrorMessage(code, 'ssh-keys'), details);
  }
}
