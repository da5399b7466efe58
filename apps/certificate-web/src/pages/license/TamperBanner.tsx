import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router-dom';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { useLicenseStatus } from './license-api';

/**
 * Shown on every page while the license is in mode `tamper` (the usage ledger failed its
 * integrity check: new issuance is refused with `license_tamper` until an administrator
 * re-anchors it on the license screen).
 */
export function TamperBanner() {
  const { t } = useI18n();
  const { user } = useSession();
  const status = useLicenseStatus(can(user, 'read'));
  if (!status.data?.tamper) return null;
  return (
    <Alert
      color="red.9"
      variant="filled"
      role="alert"
      mb="sm"
      title={t('license.tamperTitle')}
      data-testid="tamper-banner"
    >
      {t('license.tamperText', { reason: status.data.tamper_reason })}{' '}
      {can(user, 'admin') && (
        <Anchor component={Link} to="/license" c="white" underline="always">
          {t('license.tamperAction')}
        </Anchor>
      )}
    </Alert>
  );
}
