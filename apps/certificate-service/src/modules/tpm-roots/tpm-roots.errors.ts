import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type TpmRootsErrorCode = 'tpm_root_invalid' | 'tpm_root_exists' | 'tpm_root_not_found';

/** `tpm_root_invalid` names what is wrong with the certificate after the catalogue message. */
export class TpmRootsError extends CertsvcError<TpmRootsErrorCode> {
  constructor(code: TpmRootsErrorCode, problem?: string) {
    super(code, problem ? `${certsvcErrorMessage(code)}: ${problem}` : certsvcErrorMessage(code));
  }
}
