import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type NetworksErrorCode =
  'network_not_found' | 'network_wired_active_exists' | 'network_ssid_invalid';

export class NetworksError extends CertsvcError<NetworksErrorCode> {
  constructor(code: NetworksErrorCode) {
    super(code, certsvcErrorMessage(code));
  }
}
