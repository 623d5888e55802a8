export interface PartSpec {
  name: string;
  content: string | Buffer;
  /** Sent as a file part (`filename=`) when given. */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body built by hand, so tests control every byte of it. */
export function multipart(parts: PartSpec[], boundary = 'grid-test-boundary-7d2a'): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const head = [`--${boundary}`, `Content-Disposition: ${disposition}`, ...(p.contentType ? [`Content-Type: ${p.contentType}`] : []), '', ''].join('\r\n');
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
