import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Seals and opens secrets (platform tokens, app secrets) with AES-256-GCM under a key
 * kept in the data dir (file mode 0600). A stolen database alone reveals no token.
 */
export class SecretBox {
  // A KeyObject made once: a raw Buffer key is prepared again on every cipher (about 25 µs
  // of the 31 µs an open took; every publish attempt opens its connection's tokens).
  readonly #key: KeyObject;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = createSecretKey(key);
  }

  /** Loads the key file, creating it (0600) on first use. */
  static fromKeyFile(path: string): SecretBox {
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    }
    chmodSync(path, 0o600);
    return new SecretBox(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64'));
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [v, iv, tag, ct] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }

  sealJson(value: unknown): string {
    return this.seal(JSON.stringify(value));
  }

  openJson<T>(sealed: string): T {
    return JSON.parse(this.open(sealed)) as T;
  }
}
