export interface MultipartPart {
  name?: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
  /** Replaces the generated part headers (for malformed parts). */
  rawHeaders?: string;
}

/** A multipart/form-data body; header values may hold any byte (latin1 in, bytes out). */
export function encodeMultipart(parts: MultipartPart[], boundary: string, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.rawHeaders !== undefined) {
      chunks.push(Buffer.from(part.rawHeaders, 'latin1'));
    } else {
      let disposition = 'Content-Disposition: form-data';
      if (part.name !== undefined) disposition += `; name="${part.name}"`;
      if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
      chunks.push(Buffer.from(`${disposition}\r\n`, 'latin1'));
      if (part.contentType !== undefined) {
        chunks.push(Buffer.from(`Content-Type: ${part.contentType}\r\n`, 'latin1'));
      }
    }
    chunks.push(Buffer.from('\r\n'));
    chunks.push(Buffer.from(part.data));
    chunks.push(Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
