/** One DER element inside `bytes`: tag, where its contents start and end. */
export interface DerElement {
  readonly tag: number;
  readonly start: number;
  readonly contentStart: number;
  readonly end: number;
}

/** The element at `offset` (definite lengths only, as DER requires). */
export function readElement(bytes: Buffer, offset: number): DerElement {
  if (offset + 2 > bytes.length) throw new Error('DER: truncated');
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  let contentStart = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || contentStart + count > bytes.length) {
      throw new Error('DER: bad length');
    }
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + bytes[contentStart + i];
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > bytes.length) throw new Error('DER: truncated');
  return { tag, start: offset, contentStart, end };
}

/** The elements inside a constructed element. */
export function children(bytes: Buffer, parent: DerElement): DerElement[] {
  const items: DerElement[] = [];
  for (let offset = parent.contentStart; offset < parent.end;) {
    const item = readElement(bytes, offset);
    items.push(item);
    offset = item.end;
  }
  return items;
}

export const contents = (bytes: Buffer, element: DerElement): Buffer =>
  bytes.subarray(element.contentStart, element.end);

export const whole = (bytes: Buffer, element: DerElement): Buffer =>
  bytes.subarray(element.start, element.end);

/** Dotted OBJECT IDENTIFIER of an element's contents. */
export function decodeOid(value: Buffer): string {
  const arcs = [Math.floor(value[0] / 40), value[0] % 40];
  let arc = 0;
  for (const byte of value.subarray(1)) {
    arc = arc * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(arc);
      arc = 0;
    }
  }
  return arcs.join('.');
}
