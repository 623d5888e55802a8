import type { Context } from 'koa';
import { PayloadTooLargeError } from '../errors';

/** Reads the whole request body, refusing more than `limit` bytes with 413 (behavior-notes §1.3). */
export async function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) {
    ctx.req.resume();
    throw new PayloadTooLargeError();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) throw new PayloadTooLargeError();
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

export async function readText(ctx: Context, limit: number): Promise<string> {
  return (await readBody(ctx, limit)).toString('utf8');
}
