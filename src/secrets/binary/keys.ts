// Key material recognised by its bytes, whatever the file is called: DER keys, PKCS#12, Java key
// stores and Kerberos keytabs. Text formats (PEM, PuTTY, age) are content rules (rules/keys.ts).
import { classifyDerKey } from "./der.js";
import { isJavaKeyStoreWithKey, isKerberosKeytab, JCEKS_MAGIC, JKS_MAGIC } from "./keystore.js";

/** How much of a file starting with these 4 bytes the check needs: none, the head, or a whole store. */
export function keyHeadLength(first: Uint8Array): number {
  if (first.length < 4) return 0;
  const magic = Buffer.from(first.buffer, first.byteOffset, 4).readUInt32BE(0);
  // A Java trust store must be read to its end to be told from a key store.
  if (magic === JKS_MAGIC || magic === JCEKS_MAGIC) return 4 * 1024 * 1024;
  // DER SEQUENCE, Kerberos keytab version 5.
  return first[0] === 0x30 || first[0] === 0x05 ? 8192 : 0;
}

export interface BinaryKey {
  rule: string;
  description: string;
}

/**
 * The key material a file starts with, or undefined. `head` is the file's first bytes (a few KiB is
 * plenty), `size` its whole length.
 */
export function findBinaryKey(head: Uint8Array, size: number): BinaryKey | undefined {
  const der = classifyDerKey(head, size);
  if (der === "PKCS#12 key store") return { rule: "pkcs12-file", description: der };
  if (der) return { rule: "private-key-der", description: der };
  if (isJavaKeyStoreWithKey(head)) {
    return { rule: "java-keystore", description: "Java key store (JKS/JCEKS) with a key entry" };
  }
  if (isKerberosKeytab(head)) return { rule: "kerberos-keytab", description: "Kerberos keytab" };
  return undefined;
}
