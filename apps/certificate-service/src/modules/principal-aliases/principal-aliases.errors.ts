import { CertsvcError } from '../../app/errors/certsvc-error';

export type PrincipalAliasesErrorCode =
  | 'principal_alias_not_found'
  | 'principal_alias_exists'
  | 'principal_alias_member_not_found'
  | 'principal_alias_member_exists';

const MESSAGES: Record<PrincipalAliasesErrorCode, string> = {
  principal_alias_not_found: 'principal alias not found',
  principal_alias_exists: 'a principal alias with this name exists',
  principal_alias_member_not_found: 'this person is not a member of the alias',
  principal_alias_member_exists: 'this person is already a member of the alias',
};

export class PrincipalAliasesError extends CertsvcError<PrincipalAliasesErrorCode> {
  constructor(code: PrincipalAliasesErrorCode) {
    super(code, MESSAGES[code]);
  }
}
