import { createHash } from 'node:crypto';

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * A CIDv1 (base32, sha2-256) over `bytes`: codec raw (0x55) for blobs, as PDSes make them;
 * dag-cbor (0x71) for records, which the simulator hashes over the record's JSON rather
 * than its DAG-CBOR encoding (the CID has the right form; its digest is the simulator's own).
 */
export function cidFor(bytes: Uint8Array, codec: 'raw' | 'dag-cbor'): string {
  const digest = createHash('sha256').update(bytes).digest();
  return 'b' + base32(Uint8Array.from([0x01, codec === 'raw' ? 0x55 : 0x71, 0x12, 0x20, ...digest]));
}
