import { asArray, asRecord, asString } from './json-value';
import { messageString, SarifRule, SarifRunContext } from './sarif-run-context';

/**
 * The text of a SARIF `message` (§3.11): its `text` (else `markdown`), else the rule's or the
 * tool's message string `id`; `{n}` placeholders filled from `arguments`. A bare string is read
 * as the text.
 */
export function messageText(
  message: unknown,
  rule: SarifRule | undefined,
  ctx: SarifRunContext,
): string | undefined {
  if (typeof message === 'string') return asString(message);
  const record = asRecord(message);
  let text = asString(record?.text) ?? asString(record?.markdown);
  const id = asString(record?.id);
  if (text === undefined && id !== undefined) text = messageString(ctx, rule, id);
  if (text === undefined) return undefined;
  const args = asArray(record?.arguments);
  if (args.length === 0) return text;
  return text.replace(/\{(\d+)\}/g, (whole, n: string) => {
    const arg = args[Number(n)];
    return typeof arg === 'string' || typeof arg === 'number' ? String(arg) : whole;
  });
}
