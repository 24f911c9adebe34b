import { createHmac } from 'node:crypto';

/**
 * `Ferry-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (decision
 * 0072). The key is the secret as the endpoint's creation answered it (its 64 hex characters, as
 * text). The time is signed with the body so that a receiver can refuse an old request replayed.
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
