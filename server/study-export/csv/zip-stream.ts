/**
 * A zip written as it goes (fflate's streaming Zip with ZipDeflate): files one after the other,
 * each fed text in chunks, the archive's bytes handed out as soon as fflate makes them. Memory
 * holds one chunk of text and fflate's deflate window, whatever the archive's size.
 *
 * Binary files (images) are added whole and stored as they are: they are compressed already.
 *
 * Used from an async generator: write() and close() answer the bytes ready so far, which the
 * generator yields, so the reader's pace (the HTTP reply, a file) sets the writer's.
 */
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from "fflate";

/** Text is handed to the compressor in chunks of about this many characters. */
const CHUNK_CHARACTERS = 64 * 1024;

export class ZipStream {
  private readonly zip: Zip;
  private ready: Uint8Array[] = [];
  private failure: Error | null = null;
  private file: ZipDeflate | null = null;
  private pending = "";

  constructor(private readonly mtime = new Date()) {
    this.zip = new Zip((error, chunk) => {
      if (error) this.failure = error;
      else this.ready.push(chunk);
    });
  }

  /** Starts the next file (ending the one before). */
  startFile(name: string): Uint8Array[] {
    this.endFile();
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = this.mtime;
    this.zip.add(file);
    this.file = file;
    return this.take();
  }

  /** A whole binary file, stored without compression (ending the file before). */
  addFile(name: string, bytes: Uint8Array): Uint8Array[] {
    this.endFile();
    const file = new ZipPassThrough(name);
    file.mtime = this.mtime;
    this.zip.add(file);
    file.push(bytes, true);
    return this.take();
  }

  /** Text for the current file. */
  write(text: string): Uint8Array[] {
    this.pending += text;
    if (this.pending.length >= CHUNK_CHARACTERS) this.flush(false);
    return this.take();
  }

  /** Ends the last file and the archive: the answer holds the archive's last bytes. */
  close(): Uint8Array[] {
    this.endFile();
    this.zip.end();
    return this.take();
  }

  private endFile() {
    if (this.file) this.flush(true);
    this.file = null;
  }

  private flush(final: boolean) {
    if (!this.file) throw new Error("No zip file is open: call startFile first");
    const text = this.pending;
    this.pending = "";
    this.file.push(strToU8(text), final);
  }

  private take(): Uint8Array[] {
    if (this.failure) throw this.failure;
    const chunks = this.ready;
    this.ready = [];
    return chunks;
  }
}
