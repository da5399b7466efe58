import { CertsvcError } from '../../app/errors/certsvc-error';

export type SettingsErrorCode = 'corp_allowlist_entry_not_found';

const MESSAGES: Record<SettingsErrorCode, string> = {
  corp_allowlist_entry_not_found: 'this serial is not on the corp allowlist',
};

export class SettingsError extends CertsvcError<SettingsErrorCode> {
  constructor(code: SettingsErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
