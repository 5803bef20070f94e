// The content scan of one exported file (or archive member), whatever form its bytes take: the first
// bytes decide between text, UTF-16/32 text, an archive to open, or binary content; key material is
// recognised by its bytes in every case. A single pass: bytes are routed as they arrive.
import { openArchive } from "./archive-scan.js";
import { findBinaryKey, keyHeadLength } from "./binary/keys.js";
import { compressionName, detectForm, type Form } from "./decode/detect.js";
import type { FileScan, Finding } from "./finding.js";
import { createFinding, type NestedSite } from "./scan-settings.js";
import { DecodingSink, DiscardSink, TeeSink } from "./sinks.js";
import { TextScan } from "./text-scan.js";

/** git's own test reads 8000 bytes for a NUL; the form shows in this much. */
const HEAD = 8192;

export class ContentFileScan implements FileScan {
  /** Bytes that arrived before the form was known (fewer than HEAD). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The first bytes, for the key-material check at the end; how many is known after 4 bytes. */
  private head: Buffer[] = [];
  private headBytes = 0;
  private headLimit: number | undefined;
  private size = 0;
  private sink: FileScan | undefined;
  private ended = false;

  constructor(private readonly site: NestedSite) {}

  write(chunk: Buffer): void {
    if (this.ended) throw new Error(`content scan of ${this.site.path} written after end`);
    this.size += chunk.length;
    if (this.headBytes < (this.headLimit ?? 4)) this.keepHead(chunk);
    if (this.sink) {
      this.sink.write(chunk);
    } else if (this.pendingBytes + chunk.length >= HEAD) {
      this.route([...this.pending, chunk]);
    } else {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
    }
  }

  end(): Finding[] {
    if (this.ended) throw new Error(`content scan of ${this.site.path} ended twice`);
    this.ended = true;
    if (!this.sink) this.route(this.pending);
    const findings = (this.sink as FileScan).end();
    const key = this.headLimit ? this.binaryKeyFinding(Buffer.concat(this.head)) : undefined;
    this.head = [];
    return key ? [key, ...findings] : findings;
  }

  private binaryKeyFinding(head: Buffer): Finding | undefined {
    const key = findBinaryKey(head, this.size);
    if (!key) return undefined;
    const secret = head.toString("hex", 0, 64);
    return createFinding(this.site, { line: 1, rule: key.rule, description: key.description, secret });
  }

  /** Keeps the first bytes while they may start key material (the first 4 decide). */
  private keepHead(chunk: Buffer): void {
    const take = chunk.subarray(0, (this.headLimit ?? 4) - this.headBytes);
    this.head.push(Buffer.from(take));
    this.headBytes += take.length;
    if (this.headLimit === undefined && this.headBytes >= 4) {
      this.headLimit = keyHeadLength(Buffer.concat(this.head));
      if (this.headLimit === 0) this.head = [];
      else this.keepHead(chunk.subarray(take.length));
    }
  }

  /** Chooses the sink from the first bytes and hands it everything that arrived so far. */
  private route(chunks: Buffer[]): void {
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.pending = [];
    const head = bytes.subarray(0, HEAD);
    const sink = this.sinkFor(detectForm(head), head);
    this.sink = sink;
    if (bytes.length === 0) return;
    sink.write(bytes);
  }

  /** `head`: the first bytes, which name the compressed form of a sealed file. */
  private sinkFor(form: Form, head: Uint8Array): FileScan {
    const text = () => new TextScan(this.site, this.site.rulePath);
    const inner = (site: NestedSite) => new ContentFileScan(site);
    switch (form) {
      case "text":
        return text();
      case "binary":
        return new DiscardSink();
      case "sealed":
        return openArchive({ sealed: compressionName(head) as string }, this.site, inner);
      case "utf16le-or-text":
        return new TeeSink([new DecodingSink("utf16le", text()), text()]);
      case "utf16be-or-text":
        return new TeeSink([new DecodingSink("utf16be", text()), text()]);
      case "gzip":
      case "zip":
      case "tar":
        return openArchive(form, this.site, inner);
      default:
        return new DecodingSink(form, text());
    }
  }
}
