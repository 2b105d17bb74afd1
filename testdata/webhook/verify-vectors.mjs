// Independent check of fourd's webhook signature scheme with Node's standard
// library only (node:crypto, node:fs). Usage:
//
//   node verify-vectors.mjs [vectors.json]
//
// For every vector it computes "sha256=" + hex HMAC-SHA256(secret,
// "<timestamp>.<body>"), compares it with the expected signature, and runs
// the receiver's verification routine (timestamp tolerance of 300 s,
// constant-time compare of equal lengths) on the vector and on a tampered
// copy. It exits 1 on the first mismatch.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TOLERANCE_SECONDS = 300;

export function sign(secret, timestamp, body) {
  const mac = createHmac("sha256", Buffer.from(secret, "utf8"));
  mac.update(`${timestamp}.`, "utf8");
  mac.update(body);
  return "sha256=" + mac.digest("hex");
}

// verify is the routine a receiver runs: header is X-Service-Signature,
// timestamp is X-Service-Timestamp (as text), body the raw request body.
export function verify(secret, header, timestamp, body, nowSeconds) {
  if (!/^[0-9]{1,18}$/.test(timestamp)) return "invalid timestamp";
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return "timestamp outside tolerance";
  const expected = Buffer.from(sign(secret, timestamp, body), "utf8");
  const got = Buffer.from(header, "utf8");
  if (expected.length !== got.length || !timingSafeEqual(expected, got)) return "signature mismatch";
  return null;
}

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? join(here, "signature-vectors.json");
const { vectors } = JSON.parse(readFileSync(file, "utf8"));
let failed = 0;
for (const v of vectors) {
  const body = Buffer.from(v.body, "utf8");
  const ts = String(v.timestamp);
  const got = sign(v.secret, ts, body);
  const checks = [
    [got === v.signature, `sign: got ${got}, want ${v.signature}`],
    [verify(v.secret, v.signature, ts, body, v.timestamp + 299) === null, "verify rejected a valid signature"],
    [verify(v.secret, v.signature, ts, Buffer.concat([body, Buffer.from(" ")]), v.timestamp) !== null, "verify accepted a tampered body"],
    [verify(v.secret + "x", v.signature, ts, body, v.timestamp) !== null, "verify accepted a wrong secret"],
    [verify(v.secret, v.signature, ts, body, v.timestamp + 301) !== null, "verify accepted an old timestamp"],
  ];
  for (const [ok, msg] of checks) {
    if (!ok) {
      console.error(`FAIL ${v.name}: ${msg}`);
      failed++;
    }
  }
}
if (failed > 0) process.exit(1);
console.log(`ok ${vectors.length} vectors`);
