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

/**
 * First row (by seq) whose chain link or hash is wrong, or undefined when intact. `start` is
 * the row the entries continue (the genesis by default, or a signed anchor checkpoint).
 */
export function firstBrokenLink(
  entries: readonly ChainedLedgerEntry[],
  start: { seq: bigint; hash: string } = { seq: 0n, hash: LEDGER_GENESIS_HASH },
): bigint | undefined {
  let prevHash = start.hash;
  let prevSeq = start.seq;
  for (const e of entries) {
    if (e.seq !== prevSeq + 1n || e.prevHash !== prevHash || ledgerHash(e, prevHash) !== e.hash) {
      return e.seq;
    }
    prevHash = e.hash;
    prevSeq = e.seq;
  }
  return undefined;
}

/** A signed statement of the ledger head and the slots in use (see license-checkpoint.entity). */
export interface CheckpointFacts {
  readonly seq: bigint;
  readonly hash: string;
  readonly slotCount: number;
  readonly anchor: boolean;
  /** Anchors only: digest of every ledger row up to `seq` as stored (`ledgerDigest`). */
  readonly prefixDigest: string | null;
  readonly at: Date;
}

/** SHA-256 over every field of the rows as stored, in order (broken links included). */
export function ledgerDigest(entries: readonly ChainedLedgerEntry[]): string {
  const h = createHash('sha256').update('certsvc-ledger-digest/v1');
  for (const e of entries) {
    h.update(
      ['', e.seq.toString(), e.identityKey, e.event, e.at.toISOString(), e.prevHash, e.hash].join(
        '\u0000',
      ),
    );
  }
  return h.digest('hex');
}

/** The bytes the deployment instance key signs for a checkpoint. */
export function checkpointMessage(cp: CheckpointFacts): Buffer {
  return Buffer.from(
    [
      'certsvc-license-checkpoint/v1',
      cp.seq.toString(),
      cp.hash,
      String(cp.slotCount),
      cp.anchor ? 'anchor' : 'append',
      cp.prefixDigest ?? '',
      cp.at.toISOString(),
    ].join('\u0000'),
    'utf8',
  );
}
