import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The claims of the simulator's session and service tokens (shaped as a PDS's). */
export interface SimClaims {
  scope: string;
  sub: string;
  aud: string;
  iat: number;
  exp: number;
  jti?: string;
  lxm?: string;
}

/** HS256 JWTs signed with the simulator's own secret (kept in its state, so tokens survive a restart). */
export function jwtKit(secret: string) {
  const sign = (claims: SimClaims): string => {
    const head = Buffer.from(JSON.stringify({ typ: claims.scope === 'com.atproto.refresh' ? 'refresh+jwt' : 'at+jwt', alg: 'HS256' })).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
    return `${head}.${body}.${sig}`;
  };
  const verify = (token: string): SimClaims | null => {
    const [head, body, sig] = token.split('.');
    if (!head || !body || !sig) return null;
    const want = createHmac('sha256', secret).update(`${head}.${body}`).digest();
    const got = Buffer.from(sig, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SimClaims;
    } catch {
      return null;
    }
  };
  return { sign, verify, newJti: () => randomBytes(16).toString('base64url') };
}
