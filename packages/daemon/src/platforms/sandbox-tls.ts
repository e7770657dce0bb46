import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-files';
import type * as Selfsigned from 'selfsigned';

type SelfsignedModule = typeof Selfsigned;

/** The sandbox origins' certificate and key (PEM), and the file a client trusts (NODE_EXTRA_CA_CERTS or its agent's `ca`). */
export interface SandboxCertificate {
  cert: string;
  key: string;
  certFile: string;
}

/** Where the certificate lives in the data dir: `<data dir>/sandbox-tls/cert.pem` (and `key.pem`, 0600). */
export function sandboxCertFile(dataDir: string): string {
  return join(dataDir, 'sandbox-tls', 'cert.pem');
}

/** A certificate is replaced this long before it runs out, so a running daemon never serves an expired one. */
const RENEW_BEFORE_MS = 30 * 86_400_000;
const VALID_YEARS = 10;

/**
 * The self-signed certificate the simulators' https origins present (for clients that speak
 * only https, such as `twitter-api-v2`). Generated once into the data dir with `selfsigned`
 * (an EC P-256 key, SHA-256, valid 10 years, for 127.0.0.1, ::1 and localhost), then
 * reused on every start so a client trusts it once; renewed when it nears its end or its
 * files are unreadable. It is its own issuer, so trusting the file trusts exactly it.
 */
export async function sandboxCertificate(dataDir: string, now: Date = new Date()): Promise<SandboxCertificate> {
  const certFile = sandboxCertFile(dataDir);
  const keyFile = join(dataDir, 'sandbox-tls', 'key.pem');
  const kept = readKept(certFile, keyFile, now);
  if (kept) return kept;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  // Loaded only when a certificate is made (once per data dir): the daemon's start does not pay for it.
  // selfsigned is CommonJS: Node gives its exports as named ones, a bundle (the CLI's, the
  // binary's) only as the default export.
  const mod = (await import('selfsigned')) as SelfsignedModule & { default?: SelfsignedModule };
  const generate = mod.generate ?? mod.default?.generate;
  if (typeof generate !== 'function') throw new Error('the selfsigned module has no generate()');
  const pems = await generate([{ name: 'commonName', value: 'socialpub sandbox' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  mkdirSync(join(dataDir, 'sandbox-tls'), { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileSync(keyFile, pems.private, { mode: PRIVATE_FILE_MODE });
  writeFileSync(certFile, pems.cert, { mode: PRIVATE_FILE_MODE });
  return { cert: pems.cert, key: pems.private, certFile };
}

function readKept(certFile: string, keyFile: string, now: Date): SandboxCertificate | null {
  if (!existsSync(certFile) || !existsSync(keyFile)) return null;
  try {
    const cert = readFileSync(certFile, 'utf8');
    const key = readFileSync(keyFile, 'utf8');
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS <= now.getTime() || !x509.checkPrivateKey(createPrivateKey(key))) return null;
    return { cert, key, certFile };
  } catch {
    return null;
  }
}
