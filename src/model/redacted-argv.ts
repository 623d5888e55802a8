/** Option and property names whose value is a secret (`--tls-keystore-password`, `-Dsome.password=`). */
const SECRET_NAME = /pass(?:word|phrase)?|secret|token|credential/i;
const HIDDEN = '***';

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !/-file$/i.test(name); // a file's path is no secret
}

/**
 * A command line with secret values replaced by `***`, for `GET /server/env` and the server
 * report: `--tls-keystore-password PW`, `--tls-keystore-password=PW`, `-Dx.password=PW` and
 * `-D x.password=PW`. Paths (`--tls-keystore-password-file`) and every other argument are kept.
 */
export function redactedArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const property = argv[i - 1] === '-D' && !arg.startsWith('-');
    if ((arg.startsWith('-') || property) && isSecretName(name)) {
      if (eq !== -1) out.push(`${name}=${HIDDEN}`);
      else if (property) out.push(arg);
      else {
        out.push(arg);
        if (i + 1 < argv.length) {
          out.push(HIDDEN);
          i++;
        }
      }
    } else {
      out.push(arg);
    }
  }
  return out;
}
