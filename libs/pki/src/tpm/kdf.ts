import { createHmac } from 'node:crypto';
import { u32 } from './tpm-reader';

/**
 * KDFa of TPM 2.0 Part 1 §11.4.10.2 (SP 800-108 counter mode with HMAC):
 * HMAC(key, [i]₃₂ ‖ label ‖ 00 ‖ contextU ‖ contextV ‖ [bits]₃₂) for i = 1, 2, …
 */
export function kdfa(
  hash: string,
  key: Buffer,
  label: string,
  contextU: Buffer,
  contextV: Buffer,
  bits: number,
): Buffer {
  const bytes = Math.ceil(bits / 8);
  const labelBytes = Buffer.concat([Buffer.from(label, 'ascii'), Buffer.alloc(1)]);
  const parts: Buffer[] = [];
  let produced = 0;
  for (let counter = 1; produced < bytes; counter++) {
    const block = createHmac(hash, key)
      .update(u32(counter))
      .update(labelBytes)
      .update(contextU)
      .update(contextV)
      .update(u32(bits))
      .digest();
    parts.push(block);
    produced += block.length;
  }
  return Buffer.concat(parts).subarray(0, bytes);
}
