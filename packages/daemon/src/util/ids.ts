import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random lowercase base36 string of `length` characters (about 5.17 bits each). */
export function randomToken(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length] as number;
    if (b < 252) out += ALPHABET[b % 36]; // 252 = 7*36: drop the biased tail
    if (i > length * 8) return out + randomToken(length - out.length);
  }
  return out;
}

/** Opaque prefixed ids: job_…, task_…, key_…, tgt_…, con_…, file_…, ser_… (a series), whk_… (a webhook endpoint), ses_… (a dashboard session), rvl_… (a review link), cmt_… (a comment on a post), drf_… (a draft), inb_… (an inbox item), rpl_… (our reply to one) */
export function newId(prefix: 'job' | 'task' | 'key' | 'tgt' | 'con' | 'file' | 'req' | 'ser' | 'whk' | 'ses' | 'rvl' | 'cmt' | 'drf' | 'inb' | 'rpl'): string {
  return `${prefix}_${randomToken(20)}`;
}

export function newUserId(): string {
  return randomUUID();
}
