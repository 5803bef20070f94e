// Key stores with a binary format of their own: Java JKS/JCEKS and Kerberos keytabs. A Java store that
// holds only trusted certificates (a trust store) is public and passes; one with a private or secret
// key entry, or one that cannot be read to its end within the bytes given, is key material.

export const JKS_MAGIC = 0xfeedfeed;
export const JCEKS_MAGIC = 0xcececece;
const TRUSTED_CERT_ENTRY = 2;

/** A bounds-checked big-endian reader; every read past the end returns undefined. */
class Cursor {
  constructor(
    private readonly bytes: Uint8Array,
    public at = 0,
  ) {}

  private view(length: number): DataView | undefined {
    if (this.at + length > this.bytes.length) return undefined;
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.at, length);
    this.at += length;
    return view;
  }

  u16(): number | undefined {
    return this.view(2)?.getUint16(0);
  }

  u32(): number | undefined {
    return this.view(4)?.getUint32(0);
  }

  i32(): number | undefined {
    return this.view(4)?.getInt32(0);
  }

  skip(length: number | undefined): boolean {
    if (length === undefined || this.at + length > this.bytes.length) return false;
    this.at += length;
    return true;
  }

  /** A u16-length-prefixed string, skipped. */
  skipUtf(): boolean {
    return this.skip(this.u16());
  }
}

/** Skips one certificate of a JKS entry (v2 stores name the certificate type first). */
function skipCertificate(cursor: Cursor, version: number): boolean {
  if (version === 2 && !cursor.skipUtf()) return false;
  return cursor.skip(cursor.u32());
}

/**
 * True when `bytes` is a JKS or JCEKS store with a key entry, or one whose entries cannot all be read
 * from the bytes given (then it is treated as key material: the store is not proven public).
 */
export function isJavaKeyStoreWithKey(bytes: Uint8Array): boolean {
  const cursor = new Cursor(bytes);
  const magic = cursor.u32();
  if (magic !== JKS_MAGIC && magic !== JCEKS_MAGIC) return false;
  const version = cursor.u32();
  const count = cursor.u32();
  if ((version !== 1 && version !== 2) || count === undefined) return false;
  for (let entry = 0; entry < count; entry++) {
    const tag = cursor.u32();
    if (tag !== TRUSTED_CERT_ENTRY) return true;
    if (!cursor.skipUtf() || !cursor.skip(8) || !skipCertificate(cursor, version)) return true;
  }
  return false;
}

/** True when `bytes` starts like a Kerberos keytab (MIT format 0x0501/0x0502): a version, then a principal. */
export function isKerberosKeytab(bytes: Uint8Array): boolean {
  const cursor = new Cursor(bytes);
  const version = cursor.u16();
  if (version !== 0x0502 && version !== 0x0501) return false;
  const size = cursor.i32();
  if (size === undefined || size <= 0 || size > 1 << 20) return false;
  const components = cursor.u16();
  const realmLength = cursor.u16();
  if (components === undefined || components < 1 || components > 16) return false;
  if (realmLength === undefined || realmLength < 1 || realmLength > 255) return false;
  const realm = bytes.subarray(cursor.at, cursor.at + realmLength);
  return realm.length === realmLength && realm.every((byte) => byte > 0x20 && byte < 0x7f);
}
