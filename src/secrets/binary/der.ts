// Private keys in ASN.1 DER, told apart from certificates and public keys by the shape of their first
// few fields (RFC 8017 PKCS#1, RFC 5915 SEC1, RFC 5958 PKCS#8 and its encrypted form, RFC 7292 PKCS#12).
// Only the first ~48 bytes are needed, so the same test serves a binary file's head and the start of a
// base64 blob in text.

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OCTET_STRING = 0x04;
const OID = 0x06;

interface Tlv {
  tag: number;
  /** Offset of the contents. */
  start: number;
  /** Length of the contents; undefined for BER's indefinite length (PKCS#12 files from some tools). */
  length: number | undefined;
}

/** The TLV at `offset`, or undefined when the bytes run out or the length form is not DER/BER. */
function readTlv(bytes: Uint8Array, offset: number): Tlv | undefined {
  const tag = bytes[offset];
  const first = bytes[offset + 1];
  if (tag === undefined || first === undefined) return undefined;
  if (first < 0x80) return { tag, start: offset + 2, length: first };
  if (first === 0x80) return { tag, start: offset + 2, length: undefined };
  const count = first & 0x7f;
  if (count > 4 || offset + 2 + count > bytes.length) return undefined;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (bytes[offset + 2 + i] as number);
  return { tag, start: offset + 2 + count, length };
}

function after(tlv: Tlv): number | undefined {
  return tlv.length === undefined ? undefined : tlv.start + tlv.length;
}

function hasPrefix(bytes: Uint8Array, at: number, hex: string): boolean {
  const prefix = Buffer.from(hex, "hex");
  if (at + prefix.length > bytes.length) return false;
  return prefix.every((byte, i) => bytes[at + i] === byte);
}

/** AlgorithmIdentifier OIDs of private key types (the OID's contents, DER). */
const KEY_ALGORITHMS = [
  "2a864886f70d010101", // rsaEncryption
  "2a864886f70d01010a", // RSASSA-PSS
  "2a8648ce3d0201", // id-ecPublicKey
  "2a8648ce380401", // id-dsa
  "2a864886f70d010301", // dhKeyAgreement
  "2a8648ce3e0201", // X9.42 dhpublicnumber
  "2b656e", // X25519
  "2b656f", // X448
  "2b6570", // Ed25519
  "2b6571", // Ed448
];
/** PBES1/PBES2 (PKCS#5) and PKCS#12 password-based encryption: what wraps an encrypted private key. */
const ENCRYPTION_PREFIXES = ["2a864886f70d0105", "2a864886f70d010c01"];
/** PKCS#7 data and signedData: the content types a PKCS#12 PFX holds. */
const PFX_CONTENT = ["2a864886f70d010701", "2a864886f70d010702"];

function isOidIn(bytes: Uint8Array, tlv: Tlv | undefined, prefixes: readonly string[]): boolean {
  return tlv?.tag === OID && prefixes.some((prefix) => hasPrefix(bytes, tlv.start, prefix));
}

export type DerKeyKind =
  | "RSA or DSA private key (DER)"
  | "PKCS#8 private key (DER)"
  | "EC private key (DER)"
  | "encrypted PKCS#8 private key (DER)"
  | "PKCS#12 key store";

/**
 * What kind of private key `bytes` starts with, or undefined. With `size`, the outer structure must
 * also span exactly that many bytes, as a key file does.
 */
export function classifyDerKey(bytes: Uint8Array, size?: number): DerKeyKind | undefined {
  const outer = readTlv(bytes, 0);
  if (outer?.tag !== SEQUENCE) return undefined;
  if (size !== undefined && outer.length !== undefined && after(outer) !== size) return undefined;
  const first = readTlv(bytes, outer.start);
  if (first?.tag === SEQUENCE) {
    return isOidIn(bytes, readTlv(bytes, first.start), ENCRYPTION_PREFIXES)
      ? "encrypted PKCS#8 private key (DER)"
      : undefined;
  }
  if (first?.tag !== INTEGER || first.length !== 1) return undefined;
  const version = bytes[first.start];
  const next = after(first);
  const second = next === undefined ? undefined : readTlv(bytes, next);
  if (second === undefined) return undefined;
  if ((version === 0 || version === 1) && second.tag === SEQUENCE) {
    return isOidIn(bytes, readTlv(bytes, second.start), KEY_ALGORITHMS)
      ? "PKCS#8 private key (DER)"
      : undefined;
  }
  if (version === 0 && second.tag === INTEGER && (second.length ?? 0) >= 64)
    return "RSA or DSA private key (DER)";
  if (
    version === 1 &&
    second.tag === OCTET_STRING &&
    (second.length ?? 0) >= 16 &&
    (second.length ?? 0) <= 72
  ) {
    return "EC private key (DER)";
  }
  if (version === 3 && second.tag === SEQUENCE) {
    return isOidIn(bytes, readTlv(bytes, second.start), PFX_CONTENT) ? "PKCS#12 key store" : undefined;
  }
  return undefined;
}
