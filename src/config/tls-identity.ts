import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP, Socket } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, type SecureContextOptions, TLSSocket } from 'node:tls';
import { ConfigError } from './server-config-error';
import type { TlsConfig } from './tls-config';

/** The certificate and key the TLS listener presents, and what to tell the operator about it. */
export interface TlsIdentity {
  options: SecureContextOptions;
  /** SHA-256 of the (leaf) certificate, `AB:CD:…`, as browsers and `openssl x509 -fingerprint -sha256` show it. */
  fingerprint: string;
  /** Where it came from: the files named, or the generated pair in the data directory. */
  source: string;
  /** `generated` on this start, `reused` from an earlier one, `configured` by the settings. */
  origin: 'configured' | 'generated' | 'reused';
}

const GENERATED_DIR = 'tls';
const GENERATED_CERT = 'self-signed-cert.pem';
const GENERATED_KEY = 'self-signed-key.pem';
const VALIDITY_DAYS = 5 * 365;

/**
 * PEM files, a PKCS#12 keystore, or — when neither is configured — a self-signed certificate
 * generated into `<data>/tls/` on the first start and reused on later ones (again generated only
 * once it has expired or when its files are gone). Unusable material is a ConfigError.
 */
export async function loadTlsIdentity(tls: TlsConfig, dataDir: string, host: string): Promise<TlsIdentity> {
  if (tls.keystoreFile) {
    return identity({ pfx: readSetting(tls.keystoreFile, 'tls-keystore'), passphrase: tls.password }, tls.keystoreFile, 'configured');
  }
  if (tls.certFile && tls.keyFile) {
    const options = { cert: readSetting(tls.certFile, 'tls-cert'), key: readSetting(tls.keyFile, 'tls-key'), passphrase: tls.password };
    return identity(options, `${tls.certFile} + ${tls.keyFile}`, 'configured');
  }
  const dir = join(dataDir, GENERATED_DIR);
  const certFile = join(dir, GENERATED_CERT);
  const keyFile = join(dir, GENERATED_KEY);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile);
    const kept = identity({ cert, key: readFileSync(keyFile) }, certFile, 'reused');
    if (!hasExpired(cert)) return kept;
  }
  const pair = await generateSelfSigned(host);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  writePrivate(keyFile, pair.key);
  writePrivate(certFile, pair.cert);
  return identity({ cert: pair.cert, key: pair.key }, certFile, 'generated');
}

function identity(options: SecureContextOptions, source: string, origin: TlsIdentity['origin']): TlsIdentity {
  let socket: TLSSocket | undefined;
  try {
    // a server-side TLS socket that never connects: the documented way to read the context's certificate
    socket = new TLSSocket(new Socket(), { secureContext: createSecureContext(options), isServer: true });
    const cert = socket.getCertificate();
    if (!cert || !('fingerprint256' in cert)) throw new Error('no certificate found');
    return { options, fingerprint: cert.fingerprint256, source, origin };
  } catch (err) {
    const message = (err as Error).message;
    const locked = /mac verify|bad decrypt|wrong tag/i.test(message);
    if (locked && options.passphrase === undefined) {
      const what = options.pfx ? 'the keystore' : 'the key';
      throw new ConfigError(`cannot use TLS certificate ${source}: ${what} is protected by a password and none was given: `
        + 'put it in a file named by --tls-keystore-password-file (or tls-keystore-password-file in the configuration file), or in GRID_TLS_KEYSTORE_PASSWORD');
    }
    const hint = locked ? ' (wrong password?)'
      // RC2/3DES-encrypted keystores (older Java keytool, `openssl pkcs12 -legacy`): OpenSSL 3 reads them no more
      : /unsupported pkcs12 pfx/i.test(message) ? ' (a legacy PKCS#12 encryption such as RC2-40: convert the keystore with'
        + ' `openssl pkcs12 -legacy -in OLD.p12 -nodes -out both.pem` then `openssl pkcs12 -export -in both.pem -out NEW.p12`'
        + ' and delete both.pem, or use --tls-cert and --tls-key)'
      : '';
    throw new ConfigError(`cannot use TLS certificate ${source}: ${message}${hint}`);
  } finally {
    socket?.destroy();
  }
}

function readSetting(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${path}: ${(err as Error).message}`);
  }
}

function hasExpired(certPem: Buffer): boolean {
  return new Date(new X509Certificate(certPem).validTo).getTime() <= Date.now();
}

/** Written whole or not at all, readable by the owner only (0600). */
function writePrivate(path: string, text: string): void {
  const partial = `${path}.partial`;
  writeFileSync(partial, text, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, path);
}

/**
 * An ECDSA P-256 certificate for every name this server answers on. `selfsigned` (v5: Node's
 * WebCrypto with @peculiar/x509) builds it; loaded only here, since most starts never need it.
 */
async function generateSelfSigned(host: string): Promise<{ cert: string; key: string }> {
  const selfsigned = require('selfsigned') as typeof import('selfsigned');
  const names = answeringNames(host);
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + VALIDITY_DAYS * 86_400_000);
  const pems = await selfsigned.generate([{ name: 'commonName', value: names.dns[0] }], {
    keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate, notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...names.dns.map((value) => ({ type: 2 as const, value })), ...names.ips.map((ip) => ({ type: 7 as const, ip }))] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** The host name, `localhost`, the loopback addresses and the listen address (every interface's when it is 0.0.0.0 or ::). */
export function answeringNames(host: string): { dns: string[]; ips: string[] } {
  const dns = new Set([hostname(), 'localhost']);
  const ips = new Set(['127.0.0.1', '::1']);
  if (host === '0.0.0.0' || host === '::') {
    for (const nets of Object.values(networkInterfaces())) for (const net of nets ?? []) ips.add(net.address.replace(/%.*$/, ''));
  } else if (isIP(host)) {
    ips.add(host);
  } else {
    dns.add(host);
  }
  return { dns: [...dns], ips: [...ips] };
}
