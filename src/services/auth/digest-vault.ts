import { hkdfSync } from 'node:crypto';
import { type DigestAlgorithm, digestHa1 } from '../../model/security/passwords';
import { isSealed, openSecret, sealSecret } from '../../model/security/sealed-secret';
import type { DigestUpdate, UserRecord } from '../../store/store';

/** The name under which the server records its mechanisms for `grid user` (settings table). */
export const AUTH_MECHANISMS_SETTING = 'auth-mechanisms';

const ALGORITHMS: readonly DigestAlgorithm[] = ['MD5', 'SHA-256'];
const PLAIN_HA1: Record<DigestAlgorithm, RegExp> = { 'MD5': /^[0-9a-f]{32}$/, 'SHA-256': /^[0-9a-f]{64}$/ };

export interface DigestResealing {
  /** Rows to rewrite: plain HA1 values sealed, or HA1 values dropped (Digest off). */
  updates: DigestUpdate[];
  /** Users whose sealed values do not open with this key (the key file was replaced). */
  unreadable: string[];
  /** Users without Digest values while Digest is on (set while it was off). */
  missing: string[];
}

/**
 * Digest HA1 values are credentials: whoever has one logs in over Digest without knowing the
 * password. They are kept sealed with a key from `credentials.key` (AES-256-GCM, the user name
 * and algorithm bound in), so a copy of `grid.db` alone grants nothing; with Digest off none is
 * kept at all.
 */
export class DigestVault {
  private readonly key: Buffer;

  constructor(readonly digestEnabled: boolean, fileKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', fileKey, Buffer.alloc(0), 'grid digest ha1 v1', 32));
  }

  /** What to store for a new password. */
  digestsFor(name: string, password: string): Pick<UserRecord, 'digestMd5' | 'digestSha256'> {
    if (!this.digestEnabled) return { digestMd5: '', digestSha256: '' };
    return {
      digestMd5: this.seal(name, 'MD5', digestHa1('MD5', name, password)),
      digestSha256: this.seal(name, 'SHA-256', digestHa1('SHA-256', name, password)),
    };
  }

  /** The HA1 to check a Digest response against; undefined when none is usable. */
  ha1Of(user: Pick<UserRecord, 'name' | 'digestMd5' | 'digestSha256'>, algorithm: DigestAlgorithm): string | undefined {
    if (!this.digestEnabled) return undefined;
    const stored = algorithm === 'MD5' ? user.digestMd5 : user.digestSha256;
    return stored ? openSecret(this.key, context(user.name, algorithm), stored) : undefined;
  }

  /** The start-up step: what must change so that the stored values follow this vault's rules. */
  reseal(users: UserRecord[]): DigestResealing {
    const result: DigestResealing = { updates: [], unreadable: [], missing: [] };
    for (const u of users) {
      const stored: Record<DigestAlgorithm, string> = { 'MD5': u.digestMd5, 'SHA-256': u.digestSha256 };
      if (!this.digestEnabled) {
        if (u.digestMd5 || u.digestSha256) result.updates.push({ name: u.name, digestMd5: '', digestSha256: '' });
        continue;
      }
      const next = { ...stored };
      for (const a of ALGORITHMS) {
        if (PLAIN_HA1[a].test(stored[a])) next[a] = this.seal(u.name, a, stored[a]);
      }
      if (next.MD5 !== stored.MD5 || next['SHA-256'] !== stored['SHA-256']) {
        result.updates.push({ name: u.name, digestMd5: next.MD5, digestSha256: next['SHA-256'] });
      }
      if (!next.MD5 || !next['SHA-256']) result.missing.push(u.name);
      else if (ALGORITHMS.some((a) => isSealed(next[a]) && this.ha1Of({ name: u.name, digestMd5: next.MD5, digestSha256: next['SHA-256'] }, a) === undefined)) {
        result.unreadable.push(u.name);
      }
    }
    return result;
  }

  private seal(name: string, algorithm: DigestAlgorithm, ha1: string): string {
    return sealSecret(this.key, context(name, algorithm), ha1);
  }
}

function context(name: string, algorithm: DigestAlgorithm): string {
  return `${algorithm}\u0000${name}`;
}
