import { crc32 } from "node:zlib";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import {
  activeContentMarker,
  checkUploadContent,
  MAX_IMAGE_PIXELS,
  svgProblem,
} from "./check-upload-content.ts";

const text = (value: string) => new TextEncoder().encode(value);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Real images, made here: a small gradient with some noise. */
async function makeImage(format: "png" | "jpeg", width = 64, height = 48) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index++) pixels[index] = (index * 37) % 256;
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return new Uint8Array(await (format === "png" ? image.png() : image.jpeg()).toBuffer());
}

const SAFE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40" viewBox="0 0 120 40">
  <title>Signature</title>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs>
  <style>.ink { stroke: #123; fill: url(#g); }</style>
  <path class="ink" d="M10 30 C 30 5, 50 35, 110 10" style="fill:none;stroke-width:2"/>
  <use xlink:href="#g"/>
</svg>`;

describe("checkUploadContent", () => {
  let png: Uint8Array;
  let jpeg: Uint8Array;
  beforeAll(async () => {
    png = await makeImage("png");
    jpeg = await makeImage("jpeg");
  });

  it("accepts real JPEG, PNG and a plain SVG", async () => {
    expect(await checkUploadContent("png", png)).toEqual({ ok: true });
    expect(await checkUploadContent("jpeg", jpeg)).toEqual({ ok: true });
    expect(await checkUploadContent("jpg", jpeg)).toEqual({ ok: true });
    expect(await checkUploadContent("svg", text(SAFE_SVG))).toEqual({ ok: true });
  });

  it("refuses a JPEG that is also an HTML page (polyglot), wherever the HTML is", async () => {
    const appended = concat(jpeg, text("<html><script>alert(1)</script></html>"));
    // A JPEG comment segment (FF FE, length) right after the start: still a valid, decodable JPEG.
    const comment = text("<SCRIPT >alert(1)</SCRIPT>");
    const inComment = concat(
      jpeg.subarray(0, 2),
      new Uint8Array([0xff, 0xfe, 0, comment.length + 2]),
      comment,
      jpeg.subarray(2),
    );
    for (const bytes of [appended, inComment]) {
      const check = await checkUploadContent("jpeg", bytes);
      expect(check.ok).toBe(false);
      expect(!check.ok && check.reason).toMatch(/also holds HTML or script/);
    }
  });

  it("refuses a PNG with a page in a text chunk or after its end", async () => {
    const afterEnd = concat(png, text("<!DOCTYPE html><p>hi"));
    const check = await checkUploadContent("png", afterEnd);
    expect(!check.ok && check.reason).toMatch(/HTML or script \("<!DOCTYPE"\)/);
    const trailingZip = concat(png, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    const zipCheck = await checkUploadContent("png", trailingZip);
    expect(!zipCheck.ok && zipCheck.reason).toMatch(/data after its end/);
  });

  it("refuses files whose first bytes lie: a JPEG head on garbage, a truncated PNG, a PNG named .jpeg", async () => {
    const garbage = concat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), new Uint8Array(5000).fill(7));
    expect(await checkUploadContent("jpeg", garbage)).toEqual({
      ok: false,
      reason: "The file is not a valid JPEG image: it could not be decoded.",
    });
    const truncated = concat(png.subarray(0, Math.floor(png.length / 2)), png.subarray(png.length - 12));
    expect(await checkUploadContent("png", truncated)).toEqual({
      ok: false,
      reason: "The file is not a valid PNG image: it could not be decoded.",
    });
    expect(await checkUploadContent("jpeg", png)).toEqual({
      ok: false,
      reason: "The file is not a JPEG image.",
    });
  });

  it("refuses an image that would decode to more pixels than the limit", async () => {
    // A small PNG whose header claims 7000 x 7000 pixels (the header's CRC made right).
    expect(7000 * 7000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    const big = new Uint8Array(png);
    const view = new DataView(big.buffer);
    view.setUint32(16, 7000);
    view.setUint32(20, 7000);
    view.setUint32(29, crc32(big.subarray(12, 29)));
    const check = await checkUploadContent("png", big);
    expect(!check.ok && check.reason).toMatch(/too large: at most 40 megapixels/);
  });

  it("keeps the signature check for PDF and Word", async () => {
    expect(await checkUploadContent("pdf", text("%PDF-1.7\n..."))).toEqual({ ok: true });
    expect((await checkUploadContent("pdf", text("MZ\x90\x00"))).ok).toBe(false);
    expect((await checkUploadContent("docx", text("PK\x03\x04..."))).ok).toBe(true);
  });

  it("accepts CSV text in UTF-8 (with or without a byte order mark) or a Windows encoding", async () => {
    const rows = 'subject_id;score;note\r\nMDD-001;12;"Dolor, leve"\r\nMDD-002;7;\tañadido\r\n';
    expect(await checkUploadContent("csv", text(rows))).toEqual({ ok: true });
    expect(await checkUploadContent("csv", concat(new Uint8Array([0xef, 0xbb, 0xbf]), text(rows)))).toEqual({
      ok: true,
    });
    expect(
      await checkUploadContent("csv", new Uint8Array(Buffer.from("nombre\r\nNúñez\r\n", "latin1"))),
    ).toEqual({
      ok: true,
    });
  });

  it("refuses a CSV that is not text, or that holds a page", async () => {
    const binary = await checkUploadContent("csv", new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]));
    expect(binary.ok).toBe(false);
    const utf16 = await checkUploadContent("csv", new Uint8Array(Buffer.from("\ufeffa,b\r\n", "utf16le")));
    expect(utf16.ok).toBe(false);
    const control = await checkUploadContent("csv", text("a,b\r\n1,\u0007\r\n"));
    expect(control).toEqual({ ok: false, reason: expect.stringMatching(/^The CSV file is not text/) });
    const page = await checkUploadContent("csv", text("a,b\r\n<script>alert(1)</script>,2\r\n"));
    expect(page).toEqual({ ok: false, reason: expect.stringMatching(/HTML or script \("<script>"\)/) });
  });
});

describe("svgProblem: a corpus of SVGs that run or reach out", () => {
  const svg = (body: string, attributes = "") =>
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"${attributes}>${body}</svg>`;

  it.each([
    ["a script element", svg("<script>alert(1)</script>"), /<script> element/],
    ["a script in CDATA", svg("<script><![CDATA[alert(1)]]></script>"), /<script> element/],
    ["an upper-case script", svg("<SCRIPT>alert(1)</SCRIPT>"), /<SCRIPT> element/],
    ["an onload handler on the root", svg("<rect/>", ' onload="alert(1)"'), /event handler \(onload\)/],
    ["an onclick handler", svg('<rect onclick="alert(1)"/>'), /event handler \(onclick\)/],
    ["a javascript: link", svg('<a href="javascript:alert(1)"><text>x</text></a>'), /link to another file/],
    [
      "an obfuscated javascript: link",
      svg('<a xlink:href="jav&#x09;ascript:alert(1)"><text>x</text></a>'),
      /link/,
    ],
    ["an external image", svg('<image href="https://tracker.example/pixel.png"/>'), /link to another file/],
    ["an external use", svg('<use xlink:href="other.svg#shape"/>'), /link to another file/],
    [
      "a nested SVG as data",
      svg('<image href="data:image/svg+xml;base64,PHN2Zz4="/>'),
      /link to another file/,
    ],
    ["foreignObject", svg("<foreignObject><div>hi</div></foreignObject>"), /<foreignObject> element/],
    ["an HTML element", svg('<div xmlns="http://www.w3.org/1999/xhtml">hi</div>'), /an HTML element/],
    [
      "an external url() in an attribute",
      svg('<rect filter="url(https://x.example/f.svg#f)"/>'),
      /url\(\.\.\.\)/,
    ],
    ["an external url() in style", svg("<rect style=\"fill: url( '//x.example/a' )\"/>"), /url\(\.\.\.\)/],
    ["a CSS @import", svg("<style>@import url(https://x.example/a.css);</style>"), /@import|url/],
    [
      "javascript: in a stylesheet",
      svg("<style>a { background: url(javascript:alert(1)) }</style>"),
      /javascript:/,
    ],
    [
      "an animation setting a link",
      svg('<a><set attributeName="href" to="javascript:alert(1)"/></a>'),
      /<set> element/,
    ],
    ["animate", svg('<animate attributeName="href" values="javascript:alert(1)"/>'), /<animate> element/],
    [
      "a DOCTYPE with entities (billion laughs)",
      `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${svg("<text>&b;</text>")}`,
      /DOCTYPE/,
    ],
    [
      "an external entity",
      `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg("<text>&x;</text>")}`,
      /DOCTYPE/,
    ],
    [
      "an xml-stylesheet",
      `<?xml-stylesheet href="https://x.example/a.xsl"?>${svg("")}`,
      /processing instruction/,
    ],
    [
      "a root other than svg",
      '<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>',
      /root element other than <svg>/,
    ],
    ["an svg without namespace", "<svg><rect/></svg>", /root element other than <svg>/],
    ["broken XML", "<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>", /not well-formed/],
    ["an iframe", svg('<iframe src="https://x.example"/>'), /<iframe> element|link/],
  ])("refuses %s", (_name, source, reason) => {
    expect(svgProblem(source)).toMatch(reason);
  });

  it("accepts links inside the image and embedded raster images", () => {
    expect(svgProblem(SAFE_SVG)).toBeUndefined();
    expect(
      svgProblem(svg('<image href="data:image/png;base64,iVBORw0KGgo="/><a href="#top"><text>x</text></a>')),
    ).toBe(undefined);
  });

  it("refuses an SVG upload with a script through checkUploadContent, with a clear reason", async () => {
    const check = await checkUploadContent("svg", text(svg("<script>alert(1)</script>")));
    expect(check).toEqual({
      ok: false,
      reason:
        "The SVG file holds a <script> element. SVG images may not hold scripts, event handlers, links or references to other files, or embedded documents.",
    });
    expect((await checkUploadContent("svg", new Uint8Array([0x3c, 0x73, 0x76, 0x67, 0xff, 0xfe]))).ok).toBe(
      false,
    );
  });
});

describe("activeContentMarker", () => {
  it("finds markers in any case and ignores look-alikes that are not tags", () => {
    expect(activeContentMarker(text("xx<ScRiPt>"))).toBe("<ScRiPt>");
    expect(activeContentMarker(text("<htmlish"))).toBeUndefined();
    expect(activeContentMarker(text("JavaScript:void(0)"))).toBe("JavaScript:");
    expect(activeContentMarker(new Uint8Array(4096).fill(0x3c))).toBeUndefined();
  });
});
