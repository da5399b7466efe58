import { archiveSignature } from '@platform/report-parsing';
import { ReportsError } from './reports.errors';

/** Bytes needed to recognize every archive signature (tar's `ustar` sits at offset 257). */
export const ARCHIVE_SNIFF_BYTES = 262;

/**
 * Passes the bytes through after checking the first ARCHIVE_SNIFF_BYTES for an archive
 * signature (holding back at most that much); throws `report_archive_refused`.
 */
export async function* rejectArchives(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of source) {
    if (head === undefined) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < ARCHIVE_SNIFF_BYTES) continue;
    checked(head);
    yield head;
    head = undefined;
  }
  if (head !== undefined && head.length > 0) yield checked(head);
}

function checked(head: Buffer): Buffer {
  const format = archiveSignature(head);
  if (format) throw new ReportsError('report_archive_refused', { format });
  return head;
}
