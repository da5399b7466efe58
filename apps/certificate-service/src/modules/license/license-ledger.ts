import { createHash } from 'node:crypto';

export type LedgerEvent = 'count' | 'decommission';

/** `prev_hash` of the first ledger row. */
export const LEDGER_GENESIS_HASH = '0'.repeat(64);

export interface LedgerEntryInput {
  readonly seq: bigint;
  readonly identityKey: string;
  readonly event: LedgerEvent;
  readonly at: Date;
}

export interface ChainedLedgerEntry extends LedgerEntryInput {
  readonly prevHash: string;
  readonly hash: string;
}

/** SHA-256 over the row's fields and the previous hash (fields separated by NUL). */
export function ledgerHash(entry: LedgerEntryInput, prevHash: string): string {
  return createHash('sha256')
    .update(
      [
        'v1',
        entry.seq.toString(),
        entry.identityKey,
        entry.event,
        entry.at.toISOString(),
        prevHash,
      ].join('\u0000'),
    )
    .digest('hex');
}

/** Chains new rows after the last one (`lastSeq` 0 and the genesis hash on an empty ledger). */
export function chainEntries(
  last: { seq: bigint; hash: string },
  rows: readonly { identityKey: string; event: LedgerEvent }[],
  at: Date,
): ChainedLedgerEntry[] {
  const out: ChainedLedgerEntry[] = [];
  let seq = last.seq;
  let prevHash = last.hash;
  for (const row of rows) {
    seq += 1n;
    const input = { seq, identityKey: row.identityKey, event: row.event, at };
    const hash = ledgerHash(input, prevHash);
    out.push({ ...input, prevHash, hash });
    prevHash = hash;
  }
  return out;
}

/** First row (by seq) whose chain link or hash is wrong, or undefined when intact. */
export function firstBrokenLink(entries: readonly ChainedLedgerEntry[]): bigint | undefined {
  let prevHash = LEDGER_GENESIS_HASH;
  let prevSeq = 0n;
  for (const e of entries) {
    if (e.seq !== prevSeq + 1n || e.prevHash !== prevHash || ledgerHash(e, prevHash) !== e.hash) {
      return e.seq;
    }
    prevHash = e.hash;
    prevSeq = e.seq;
  }
  return undefined;
}
