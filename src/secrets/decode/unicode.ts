// UTF-16 and UTF-32 text turned into UTF-8 chunk by chunk, so that the rules (written for ASCII
// tokens) see `ghp_…` whatever the encoding. Code units split across chunks are carried over.
import { StringDecoder } from "node:string_decoder";

export type UnicodeEncoding = "utf16le" | "utf16be" | "utf32le" | "utf32be";

export class UnicodeDecoder {
  private readonly utf16 = new StringDecoder("utf16le");
  private carry: Buffer = Buffer.alloc(0);

  constructor(private readonly encoding: UnicodeEncoding) {}

  /** The UTF-8 bytes of the text in `chunk` (a trailing partial code unit waits for the next). */
  decode(chunk: Buffer): Buffer {
    const width = this.encoding.startsWith("utf16") ? 2 : 4;
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % width);
    this.carry = Buffer.from(bytes.subarray(whole));
    const units = bytes.subarray(0, whole);
    return Buffer.from(this.text(units), "utf8");
  }

  /** What is left at the end: a partial code unit or a lone surrogate becomes U+FFFD. */
  end(): Buffer {
    const rest = this.carry.length > 0 ? "\ufffd" : "";
    return Buffer.from(this.utf16.end() + rest, "utf8");
  }

  private text(units: Buffer): string {
    switch (this.encoding) {
      case "utf16le":
        return this.utf16.write(units);
      case "utf16be":
        return this.utf16.write(Buffer.from(units).swap16());
      default:
        return utf32(units, this.encoding === "utf32le");
    }
  }
}

function utf32(units: Buffer, littleEndian: boolean): string {
  let text = "";
  for (let at = 0; at < units.length; at += 4) {
    const point = littleEndian ? units.readUInt32LE(at) : units.readUInt32BE(at);
    text += point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff) ? "\ufffd" : String.fromCodePoint(point);
  }
  return text;
}
