/**
 * The in-run reference of the issuance bench: raw ECDSA P-256 / SHA-256 signatures with
 * node:crypto in this process, as many as certificates were issued, over distinct messages of
 * a leaf TBS's size. Certificates/s divided by these signatures/s compares across machines;
 * either figure alone does not.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface SigningReference {
  signatures: number;
  /** Median of the runs. */
  ms: number;
  runsMs: number[];
  perSecond: number;
}

/** `runs` timed passes (after a warm-up) of `count` signatures; the median pass counts. */
export function rawSigningReference(
  count: number,
  messageBytes: number,
  runs = 5,
): SigningReference {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const messages = Array.from({ length: count }, () => randomBytes(messageBytes));
  for (let i = 0; i < Math.min(count, 200); i++) sign('sha256', messages[i], privateKey);
  const runsMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    for (const message of messages) sign('sha256', message, privateKey);
    runsMs.push(performance.now() - started);
  }
  const ms = [...runsMs].sort((a, b) => a - b)[Math.floor(runs / 2)];
  return { signatures: count, ms, runsMs, perSecond: (count / ms) * 1000 };
}
