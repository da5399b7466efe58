import { useCallback, useState } from 'react';
import type { Translate } from '../i18n/i18n';

/** A message per field that failed its check (absent, undefined or false: passed). */
export type FieldChecks<F extends string> = Partial<Record<F, string | undefined | false>>;

/**
 * The UI's own validation, the one way every form checks its fields: forms are `noValidate`
 * (no browser tooltips); on submit `check` shows each failing field's message under that field
 * (Mantine `error`), and `clear` removes it as soon as the field changes.
 */
export function useFieldErrors<F extends string>() {
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const check = useCallback((checks: FieldChecks<F>): boolean => {
    const failing: Partial<Record<F, string>> = {};
    for (const [field, message] of Object.entries(checks) as [F, string | undefined | false][]) {
      if (message) failing[field] = message;
    }
    setErrors(failing);
    return Object.keys(failing).length === 0;
  }, []);
  const clear = useCallback((field: F) => {
    setErrors((prev) => {
      if (prev[field] === undefined) return prev;
      const next = { ...prev };
      delete next[field];
      return next;
    });
  }, []);
  return { errors, check, clear };
}

/** "Required" when the text is empty or blank. */
export function required(t: Translate, value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value.trim() === ''
    ? t('validation.required')
    : undefined;
}
