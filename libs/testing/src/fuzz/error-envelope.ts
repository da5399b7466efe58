/** Why an error answer is not in the service's envelope (undefined when it is). */
export type EnvelopeCheck = (status: number, body: Buffer) => string | undefined;

/** A JSON object envelope whose `fields` are strings (checked in this order). */
export function jsonErrorEnvelope(fields: readonly string[]): EnvelopeCheck {
  return (_status, body) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString());
    } catch {
      return 'the error answer is not JSON';
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return 'the error answer is not a JSON object';
    }
    const record = parsed as Record<string, unknown>;
    const missing = fields.find((field) => typeof record[field] !== 'string');
    return missing === undefined ? undefined : `the error answer has no string "${missing}"`;
  };
}
