import { hash } from 'node:crypto';
import { IDENTITY_VERSION } from './finding-identity';

/**
 * First element of every run seed. Bump it whenever normalization gives a different finding
 * for the same result bytes and run context (new field, changed rule): findings re-sighted
 * with an unchanged result are then normalized again instead of only being marked seen.
 */
export const RESULT_DIGEST_VERSION = 'result-digest/v5';

const DIGEST_BYTES = 16;

/**
 * The seed of one run's result digests: SHA-256 over the version, the identity version and
 * everything normalization reads besides the result itself (`context`: the run's rules,
 * base URIs, artifacts, scanner name...; the scanner version and revision are left out: they
 * change every scan and are stored from the batch, see the touch statement).
 */
export function runSeed(format: string, context: unknown): Buffer {
  const material = JSON.stringify([RESULT_DIGEST_VERSION, IDENTITY_VERSION, format, context]);
  return hash('sha256', material, 'buffer').subarray(0, DIGEST_BYTES);
}

/**
 * Content digest of one raw result: the first 128 bits of SHA-256(result bytes) XOR the run
 * seed, as 32 hex digits (PostgreSQL `uuid` input). Equal digests mean the same bytes
 * normalized against the same context, i.e. the same normalized finding. One native hash
 * call per result (a keyed `createHash` per result costs ~70 % more).
 */
export function resultDigest(seed: Buffer, raw: Uint8Array): string {
  const digest = hash('sha256', raw, 'buffer');
  for (let i = 0; i < DIGEST_BYTES; i += 1) digest[i] ^= seed[i];
  return digest.toString('hex', 0, DIGEST_BYTES);
}

/**
 * The findings of the product being ingested by content digest of their last sighting (see
 * findings-bulk-write.repository.ts `loadResultMemo`): a result whose digest is known is
 * re-sighted without being parsed or normalized.
 */
export interface ResultMemo {
  /** Id of the finding last sighted with this digest, if any. */
  findingOf(digest: string): string | undefined;
}

/** A memo from `id \t digest` lines (PostgreSQL COPY text; the uuid's hyphens are ignored). */
export function memoFromCopyText(text: string): ResultMemo & { size: number } {
  const byDigest = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', at);
    if (tab > at && tab < end) {
      const digest = text.slice(tab + 1, end).replaceAll('-', '');
      byDigest.set(digest, text.slice(at, tab));
    }
    at = end + 1;
  }
  return { findingOf: (digest) => byDigest.get(digest), size: byDigest.size };
}
