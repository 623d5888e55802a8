import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Small secrets sealed with AES-256-GCM: `gcm1$iv$ciphertext$tag` (Base64url parts). The context
 * (for example the user name and algorithm) is authenticated too, so a sealed value copied to
 * another row does not open there.
 */
const PREFIX = 'gcm1';
const IV_BYTES = 12;

export function isSealed(value: string): boolean {
  return value.startsWith(`${PREFIX}$`);
}

export function sealSecret(key: Buffer, context: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [PREFIX, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('$');
}

/** The plain text, or undefined when the value was not sealed with this key and context. */
export function openSecret(key: Buffer, context: string, sealed: string): string | undefined {
  const [prefix, iv, body, tag] = sealed.split('$');
  if (prefix !== PREFIX || iv === undefined || body === undefined || tag === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
