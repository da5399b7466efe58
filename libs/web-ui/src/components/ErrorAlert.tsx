import { Alert, List } from '@mantine/core';
import { ApiError } from '../core/api-error';
import type { WebUiMessageKey } from '../core/messages';
import { useI18nOf, type I18n } from '../i18n';

/**
 * An API error as the envelope's localized message, then the reason for each refused field
 * (the field's name in the UI language when the app's dictionary has `field.<name>`, and the
 * server's reasons as it sent them), and the code below, for support.
 */
export function ErrorAlert({ error }: { error: unknown }) {
  const i18n = useI18nOf<WebUiMessageKey>();
  const labels = useI18nOf<string>();
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const fields = error instanceof ApiError ? (error.fields ?? []) : [];
  return (
    <Alert
      color="red.9"
      variant="filled"
      title={i18n.t('common.error')}
      role="alert"
      data-testid="api-error"
    >
      {message}
      {fields.length > 0 && (
        <List size="sm" mt={4} c="white" data-testid="field-problems">
          {fields.map((f) => (
            <List.Item key={f.field} data-field={f.field}>
              <b>{fieldLabel(labels, f.field)}</b>: {f.problems.join('; ')}
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
function fieldLabel(i18n: I18n<string>, field: string): string {
  const [name = field, ...rest] = field.split('.');
  const parts = rest.map((p) => (/^\d+$/.test(p) ? `#${Number(p) + 1}` : p));
  const key = `field.${name}`;
  return [i18n.has(key) ? i18n.t(key) : name, ...parts].join(' ');
}
