import type busboy from 'busboy';
import { lazy } from '../util/lazy';
import type { Context } from 'koa';
import type { Readable } from 'node:stream';
import { type GridError, isGridError, PayloadTooLargeError } from '../errors';
import { openBody, refuseBody } from './request-body';

// multipart bodies are rare (backups, uploads): the parser loads on first use
const loadBusboy = lazy(() => require('busboy') as typeof import('busboy'));

export interface FormPart {
  name: string;
  text: string;
  /** The part's own Content-Type (busboy says text/plain when it names none). */
  contentType: string;
}

export interface FormLimits {
  /** Reading stops as soon as a part after this many begins, with `tooMany()`. */
  maxParts: number;
  tooMany: () => GridError;
  /** A larger part is a 413. */
  maxPartBytes: number;
  /** The whole body, decoded; a larger one is a 413. */
  maxBodyBytes: number;
  /** The error for a body that is not well-formed multipart/form-data. */
  malformed: () => GridError;
}

/**
 * The parts of a `multipart/form-data` body — fields and files alike — as UTF-8 text, in order,
 * with everything a client could make the server hold bounded (the original's compare endpoint held
 * whatever it was sent, CVE-2024-6875): the decoded body by `maxBodyBytes`, each part by
 * `maxPartBytes`, each part's headers by busboy's 16 KiB; reading stops as soon as one part more
 * than allowed begins, and a refused body closes the connection after the answer.
 */
export function readFormParts(ctx: Context, limits: FormLimits): Promise<FormPart[]> {
  let parser: busboy.Busboy;
  try {
    const count = limits.maxParts + 1; // one more than allowed, so that it is seen and refused
    parser = loadBusboy()({
      headers: ctx.req.headers,
      limits: { parts: count, fields: count, files: count, fieldSize: limits.maxPartBytes, fileSize: limits.maxPartBytes },
    });
  } catch {
    refuseBody(ctx);
    throw limits.malformed();
  }
  const body = openBody(ctx, limits.maxBodyBytes);
  return new Promise<FormPart[]>((resolve, reject) => {
    const parts: FormPart[] = [];
    let started = 0;
    let settled = false;
    const finish = (err?: GridError) => {
      if (settled) return;
      settled = true;
      body.unpipe(parser);
      if (err) body.destroy(); // unread rest: the connection closes after the answer
      parser.destroy();
      if (err) reject(err);
      else resolve(parts);
    };
    const begin = (): number | undefined => {
      if (started === limits.maxParts) {
        finish(limits.tooMany());
        return undefined;
      }
      return started++;
    };
    parser.on('field', (name: string, value: string, info: { valueTruncated: boolean; mimeType: string }) => {
      if (info.valueTruncated) return finish(new PayloadTooLargeError());
      const index = begin();
      if (index !== undefined) parts[index] = { name, text: value, contentType: info.mimeType };
    });
    parser.on('file', (name: string, file: Readable, info: { mimeType: string }) => {
      // heard before anything can stop reading: a part cut short by finish() is destroyed with an
      // error, and an unheard stream error would crash the process (errors are the parser's to report)
      file.on('error', () => undefined);
      const index = begin();
      if (index === undefined) return void file.resume();
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', () => finish(new PayloadTooLargeError()));
      file.on('end', () => { parts[index] = { name, text: Buffer.concat(chunks).toString('utf8'), contentType: info.mimeType }; });
    });
    parser.on('close', () => finish());
    parser.on('error', () => finish(limits.malformed()));
    body.on('error', (err) => finish(isGridError(err) ? err : limits.malformed()));
    body.pipe(parser);
  });
}
