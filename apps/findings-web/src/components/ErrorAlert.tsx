import { Alert, List } from '@mantine/core';
import { ApiError } from '../api/client';
import { useI18n, type Translate } from '../i18n/i18n';
import { lookUp } from '../i18n/look-up';

/**
 * An API error as the envelope's localized message, then the reason for each refused field
 * (`fields` of a `validation_failed`: the field's name in the UI language and the server's
 * reasons as it sent them, in the request's language), and the code below, for support.
 */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const fields = error instanceof ApiError ? (error.fields ?? []) : [];
  return (
    <Alert
      color="red.9"
      variant="filled"
      title={t('common.error')}
      role="alert"
      data-testid="api-error"
    >
      {message}
      {fields.length > 0 && (
        <List size="sm" mt={4} c="white" data-testid="field-problems">
          {fields.map((f) => (
            <List.Item key={f.field} data-field={f.field}>
              <b>{fieldLabel(t, f.field)}</b>: {f.problems.join('; ')}
            </List.Item>
          ))}
        </List>
      )}
      {error instanceof ApiError && (
        <div>
          <code>{error.code}</code>
        </div>
      )}
    </Alert>
  );
}

/** `tags.0` → the label of `tags` and the item's number (`Tags #1`); unknown names as they are. */
function fieldLabel(t: Translate, field: string): string {
  const [name = field, ...rest] = field.split('.');
  const parts = rest.map((p) => (/^\d+$/.test(p) ? `#${Number(p) + 1}` : p));
  return [lookUp(t, 'field', name), ...parts].join(' ');
}
