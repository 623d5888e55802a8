import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './server-config-error';

/** The TLS listener (docs/configuration.md, "TLS"). */
export interface TlsConfig {
  port: number;
  /** PEM certificate (chain) and private key files; or */
  certFile?: string;
  keyFile?: string;
  /** a PKCS#12 keystore; neither: a self-signed certificate generated into the data directory. */
  keystoreFile?: string;
  /** Of the keystore, or of an encrypted PEM key. Never logged, never shown by the server. */
  password?: string;
}

/** What the file and the flags may say about TLS; undefined = not given. */
export interface TlsOverrides {
  tlsPort?: number;
  tlsCert?: string;
  tlsKey?: string;
  tlsKeystore?: string;
  tlsKeystorePassword?: string;
  tlsKeystorePasswordFile?: string;
}

/** The password's environment variable, so it need not be on a command line or in a file. */
export const PASSWORD_ENV = 'GRID_TLS_KEYSTORE_PASSWORD';

const FILE_KEYS: Record<string, keyof TlsOverrides> = {
  'tls-cert': 'tlsCert', 'tls-key': 'tlsKey', 'tls-keystore': 'tlsKeystore',
  'tls-keystore-password': 'tlsKeystorePassword', 'tls-keystore-password-file': 'tlsKeystorePasswordFile',
};

/** A `tls-*` key of the configuration file into `out`; false when `key` is no TLS setting. */
export function readTlsSetting(out: TlsOverrides, key: string, text: string, parsePort: (text: string) => number): boolean {
  if (key === 'tls-port') {
    out.tlsPort = parsePort(text);
    return true;
  }
  const field = FILE_KEYS[key];
  if (field === undefined) return false;
  (out as Record<string, string>)[field] = text;
  return true;
}

/** The overrides without their TLS fields. */
export function withoutTls<T extends TlsOverrides>(o: T): Omit<T, keyof TlsOverrides> {
  const { tlsPort, tlsCert, tlsKey, tlsKeystore, tlsKeystorePassword, tlsKeystorePasswordFile, ...rest } = o;
  return rest;
}

/**
 * The TLS listener the settings ask for (flags win over the file), or undefined. The password
 * comes from the flags, else the file, else the environment; from a `…-password-file` the first
 * line is taken.
 */
export function resolveTls(file: TlsOverrides, flags: TlsOverrides, env: NodeJS.ProcessEnv, plainPort: number): TlsConfig | undefined {
  const port = flags.tlsPort ?? file.tlsPort;
  const cert = flags.tlsCert ?? file.tlsCert;
  const key = flags.tlsKey ?? file.tlsKey;
  const keystore = flags.tlsKeystore ?? file.tlsKeystore;
  if (port === undefined) {
    if (cert !== undefined || key !== undefined || keystore !== undefined) throw new ConfigError('tls-cert, tls-key and tls-keystore need tls-port');
    return undefined;
  }
  if (port !== 0 && port === plainPort) throw new ConfigError(`tls-port: ${port} is already the plain port`);
  if ((cert === undefined) !== (key === undefined)) throw new ConfigError('tls-cert and tls-key go together: give both or neither');
  if (keystore !== undefined && cert !== undefined) throw new ConfigError('give either tls-keystore or tls-cert and tls-key, not both');
  return {
    port,
    certFile: cert === undefined ? undefined : resolve(cert),
    keyFile: key === undefined ? undefined : resolve(key),
    keystoreFile: keystore === undefined ? undefined : resolve(keystore),
    password: passwordOf(flags) ?? passwordOf(file) ?? env[PASSWORD_ENV],
  };
}

function passwordOf(o: TlsOverrides): string | undefined {
  if (o.tlsKeystorePassword !== undefined && o.tlsKeystorePasswordFile !== undefined) {
    throw new ConfigError('give either tls-keystore-password or tls-keystore-password-file, not both');
  }
  if (o.tlsKeystorePasswordFile === undefined) return o.tlsKeystorePassword;
  try {
    return readFileSync(o.tlsKeystorePasswordFile, 'utf8').split(/\r?\n/)[0];
  } catch (err) {
    throw new ConfigError(`cannot read tls-keystore-password-file ${o.tlsKeystorePasswordFile}: ${(err as Error).message}`);
  }
}
