// Small content consumers the file scan routes to: decoded text, both readings at once, nothing.
import { UnicodeDecoder, type UnicodeEncoding } from "./decode/unicode.js";
import type { FileScan, Finding } from "./finding.js";

/** UTF-16/UTF-32 content decoded to UTF-8 and handed to a text scan. */
export class DecodingSink implements FileScan {
  private readonly decoder: UnicodeDecoder;

  constructor(
    encoding: UnicodeEncoding,
    private readonly text: FileScan,
  ) {
    this.decoder = new UnicodeDecoder(encoding);
  }

  write(chunk: Buffer): void {
    this.text.write(this.decoder.decode(chunk));
  }

  end(): Finding[] {
    this.text.write(this.decoder.end());
    return this.text.end();
  }
}

/** The same content read two ways (UTF-16 by its mark, and as 8-bit text); findings of both. */
export class TeeSink implements FileScan {
  constructor(private readonly sinks: readonly FileScan[]) {}

  write(chunk: Buffer): void {
    for (const sink of this.sinks) sink.write(chunk);
  }

  end(): Finding[] {
    return this.sinks.flatMap((sink) => sink.end());
  }
}

/** Binary content without a text reading: only the key-material check of its first bytes applies. */
export class DiscardSink implements FileScan {
  write(): void {}

  end(): Finding[] {
    return [];
  }
}
