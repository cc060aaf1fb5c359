import { mkdtempSync, rmSync, writeFileSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { indexHtmlScriptHashes, inlineScriptHashes } from "./inline-script-hashes.ts";

// The CSP specification's example: alert('Hello, world.'); hashes to this source.
const HELLO = "alert('Hello, world.');";
const HELLO_HASH = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='";

describe("inlineScriptHashes", () => {
  it("hashes each inline script's text exactly, in document order, and no script with a src", () => {
    const html = [
      `<head><script>${HELLO}</script>`,
      `<script type="module" crossorigin src="/assets/index-1.js"></script>`,
      `<script async src="/x.js"></script>`,
      `</head><body><SCRIPT type="text/javascript">${HELLO} </SCRIPT></body>`,
    ].join("\n");
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toBe(HELLO_HASH);
    // One space more is another script: another hash.
    expect(hashes[1]).not.toBe(HELLO_HASH);
    expect(hashes[1]).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });

  it("finds none in a page without inline script", () => {
    expect(inlineScriptHashes(`<title>x</title><script src="/a.js"></script>`)).toEqual([]);
  });
});

describe("indexHtmlScriptHashes", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clinro-hashes-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the built index.html, and again once a rebuild changed it when asked fresh; none without one", () => {
    const hashes = indexHtmlScriptHashes(dir);
    expect(hashes(true)).toEqual([]);
    const file = path.join(dir, "index.html");
    writeFileSync(file, `<script>${HELLO}</script>`);
    expect(hashes(true)).toEqual([HELLO_HASH]);
    writeFileSync(file, `<script>${HELLO}</script><script>${HELLO}</script>`);
    // A rebuild within the same millisecond still changes the size; set a later time too.
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    // Another answer than the shell keeps the hashes last read: the disk is not looked at.
    expect(hashes(false)).toEqual([HELLO_HASH]);
    // The shell's own answer reads the rebuilt file, and every answer after it carries its hashes.
    expect(hashes(true)).toEqual([HELLO_HASH, HELLO_HASH]);
    expect(hashes(false)).toEqual([HELLO_HASH, HELLO_HASH]);
    rmSync(file);
    expect(hashes(false)).toEqual([HELLO_HASH, HELLO_HASH]);
    expect(hashes(true)).toEqual([]);
  });

  it("reads the file at the first ask, fresh or not", () => {
    const other = mkdtempSync(path.join(tmpdir(), "clinro-hashes-"));
    try {
      writeFileSync(path.join(other, "index.html"), `<script>${HELLO}</script>`);
      expect(indexHtmlScriptHashes(other)(false)).toEqual([HELLO_HASH]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
