import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type SettingsErrorCode = 'corp_allowlist_entry_not_found';

export class SettingsError extends CertsvcError<SettingsErrorCode> {
  constructor(code: SettingsErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}
