// Private keys and signed tokens written as text: PEM blocks, base64 DER, PuTTY and age keys, JWTs.
import { classifyDerKey } from "../binary/der.js";
import type { ContentRule } from "./rule.js";

/** A compact JWT: header and payload are base64url JSON objects, then a signature. */
const JWT = /\bey[JA][A-Za-z0-9_-]{12,1024}\.ey[JA][A-Za-z0-9_-]{12,8192}\.[A-Za-z0-9_-]{16,1024}/;

/**
 * The signatures of the sample tokens the JWT documents print, each an HMAC under the key the page
 * publishes: jwt.io's default (`your-256-bit-secret`; since its redesign, with `"admin": true`,
 * `a-string-secret-at-least-256-bits-long`) and the example of RFC 7515 A.1 and RFC 7519 3.1. A token
 * ending in one is that page's example, copied into READMEs and tests, as AKIAIOSFODNN7EXAMPLE is
 * AWS's; a signature is its own token's, so no credential ends in one.
 */
const SAMPLE_JWT_SIGNATURES = new Set([
  "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  "KMUFsIDTnFmyG3nMiGM6H9FNFUROf3wh7SmqJp-QV30",
  "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
]);

/** True for a documentation sample token (its signature, padding aside, is one of the samples'). */
function isSampleJwt(token: string): boolean {
  const signature = token.slice(token.lastIndexOf(".") + 1).replace(/=+$/, "");
  return SAMPLE_JWT_SIGNATURES.has(signature);
}

export const KEY_RULES: readonly ContentRule[] = [
  {
    id: "private-key",
    description: "Private key block",
    keywords: ["-----BEGIN", "---- BEGIN"],
    // The header alone appears in PEM parsers; a key needs its body (armor headers such as
    // Proc-Type/DEK-Info/Version may come between). `\n` may be written escaped, as in JSON.
    pattern:
      /((?:-----BEGIN|---- BEGIN)[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?(?:-----| ----)(?:(?:\s|\\[rn]){1,8}[A-Za-z][\w-]{0,40}:[ \t][^\r\n\\]{0,200}){0,8}(?:\s|\\[rn]){1,8}[A-Za-z0-9+/=]{32,256})/,
    entropy: 3.5,
  },
  {
    id: "private-key-base64",
    description: "Base64-encoded private key block (kubeconfig client-key-data, Kubernetes secrets)",
    keywords: ["LS0tLS1CRUdJTi"],
    // base64("-----BEGIN ") then base64("PRIVATE KEY") at any of its three alignments.
    pattern:
      /\b(LS0tLS1CRUdJTi[A-Za-z0-9+/]{0,60}?(?:UFJJVkFURSBLRV|BSSVZBVEUgS0VZ|QUklWQVRFIEtFW)[A-Za-z0-9+/]{64,256})/,
    entropy: 4,
  },
  {
    id: "private-key-der-base64",
    description: "Base64 DER private key (PKCS#1, PKCS#8, SEC1, encrypted PKCS#8 or PKCS#12)",
    // base64 of a DER SEQUENCE: 0x30 0x82 → `MII`, 0x30 0x81 → `MIG`/`MIH`, short forms `MHc`
    // (SEC1 P-256), `MC4`/`MFE` (Ed25519). Which of them is a key is decided on the decoded bytes;
    // the body of a PEM block is the private-key rule's.
    keywords: ["MII", "MIG", "MIH", "MHc", "MC4", "MFE", "MFM"],
    pattern:
      /(?<![A-Za-z0-9+/])(?<!-----(?:\r?\n|\\[rn]){1,2}[ \t]{0,8})((?:MI[IGH]|MHc|MC4|MF[EM])[A-Za-z0-9+/]{61,8192}={0,2})(?![A-Za-z0-9+/=])/,
    entropy: 4,
    reject: (secret) => classifyDerKey(Buffer.from(secret.slice(0, 64), "base64")) === undefined,
  },
  {
    id: "putty-private-key",
    description: "PuTTY private key",
    keywords: ["PuTTY-User-Key-File-"],
    pattern:
      /PuTTY-User-Key-File-\d{1,2}:[\s\S]{0,4000}?Private-Lines:[ \t]{0,4}\d{1,4}\r?\n([A-Za-z0-9+/=]{32,256})/,
    entropy: 3.5,
  },
  {
    id: "age-secret-key",
    description: "age secret key",
    keywords: ["AGE-SECRET-KEY-1"],
    pattern: /\b(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})\b/,
    entropy: 3.5,
  },
  {
    id: "jwt",
    description: "JSON Web Token",
    keywords: ["eyJ", "eyA"],
    pattern: new RegExp(`(${JWT.source}={0,2})(?![A-Za-z0-9_=-])`),
    entropy: 3,
    reject: isSampleJwt,
  },
  {
    id: "jwt-base64",
    description: "Base64-encoded JSON Web Token",
    keywords: ["ZXlK", "ZXlB"],
    pattern: /\b(ZXl[KB][A-Za-z0-9+/]{60,12000}={0,2})(?![A-Za-z0-9+/=])/,
    entropy: 4,
    reject: (secret) => {
      const token = JWT.exec(Buffer.from(secret, "base64").toString("latin1"));
      return token === null || isSampleJwt(token[0]);
    },
  },
];
