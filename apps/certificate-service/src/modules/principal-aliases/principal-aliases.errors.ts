import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type PrincipalAliasesErrorCode =
  | 'principal_alias_not_found'
  | 'principal_alias_exists'
  | 'principal_alias_member_not_found'
  | 'principal_alias_member_exists';

export class PrincipalAliasesError extends CertsvcError<PrincipalAliasesErrorCode> {
  constructor(code: PrincipalAliasesErrorCode) {
    super(code, certsvcErrorMessage(code));
  }
}
