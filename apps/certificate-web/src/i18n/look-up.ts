import { isMessageKey } from './en';
import type { Translate } from './i18n';

/** A message for a name the API sends (`status.pending`), or the name itself. */
export function lookUp(t: Translate, prefix: string, name: string): string {
  const key = `${prefix}.${name}`;
  return isMessageKey(key) ? t(key) : name;
}
