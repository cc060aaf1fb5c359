/**
 * Reads the .eml files that the server writes to DATA_DIR/mail when no SMTP relay is set, the
 * way a person following an activation or reset link would: the recipient, the subject, the
 * plain-text body and its links.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export type DroppedMail = {
  file: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  /** Parts sent as attachments (a consent PDF), with their decoded bytes. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
};

type Part = { headers: Map<string, string>; body: string };

function parsePart(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = part.body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return part.body;
}

/** The leaf parts of a MIME message, multipart/alternative or a single part. */
function leafParts(part: Part): Part[] {
  const type = part.headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith("multipart/") || !boundary) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith("--"))
    .flatMap((chunk) => leafParts(parsePart(chunk.replace(/^\r?\n/, ""))));
}

/** The file name of an attachment part: filename="..." or RFC 2231 filename*=utf-8''... (also split in pieces). */
function attachmentName(disposition: string): string {
  const pieces = [...disposition.matchAll(/filename\*(?:(\d+)\*?)?=([^;]+)/gi)]
    .sort((a, b) => Number(a[1] ?? 0) - Number(b[1] ?? 0))
    .map((match) => match[2]!.trim().replace(/^"|"$/g, ""));
  if (pieces.length > 0) return decodeURIComponent(pieces.join("").replace(/^[\w-]+'[\w-]*'/, ""));
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? "";
}

function attachmentBytes(part: Part): Buffer {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  return encoding === "base64"
    ? Buffer.from(part.body.replace(/\s+/g, ""), "base64")
    : Buffer.from(part.body, "latin1");
}

export function parseEml(file: string, raw: string): DroppedMail {
  const message = parsePart(raw);
  const parts = leafParts(message);
  const byType = (prefix: string) =>
    parts.find(
      (part) =>
        !/^attachment/i.test(part.headers.get("content-disposition") ?? "") &&
        (part.headers.get("content-type") ?? "text/plain").toLowerCase().startsWith(prefix),
    );
  const textPart = byType("text/plain");
  const htmlPart = byType("text/html");
  const text = textPart ? decodeBody(textPart) : "";
  return {
    file,
    to: message.headers.get("to") ?? "",
    from: message.headers.get("from") ?? "",
    subject: message.headers.get("subject") ?? "",
    text,
    html: htmlPart ? decodeBody(htmlPart) : "",
    links: [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]),
    attachments: parts
      .filter((part) => /^attachment/i.test(part.headers.get("content-disposition") ?? ""))
      .map((part) => ({
        filename: attachmentName(part.headers.get("content-disposition") ?? ""),
        contentType: (part.headers.get("content-type") ?? "").split(";")[0]!.trim(),
        content: attachmentBytes(part),
      })),
  };
}

/** Every mail in the drop directory, oldest first; none when the directory does not exist. */
export async function readMailDrop(dataDir: string): Promise<DroppedMail[]> {
  const dir = path.join(dataDir, "mail");
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const mails: DroppedMail[] = [];
  for (const name of names.filter((candidate) => candidate.endsWith(".eml")).sort()) {
    const file = path.join(dir, name);
    mails.push(parseEml(file, await readFile(file, "utf8")));
  }
  return mails;
}

/** The mails to one address, oldest first. */
export async function mailsTo(dataDir: string, address: string): Promise<DroppedMail[]> {
  return (await readMailDrop(dataDir)).filter((mail) =>
    mail.to.toLowerCase().includes(address.toLowerCase()),
  );
}

/** The token of an emailed link's query string. */
export function tokenOfLink(link: string): string {
  const token = new URL(link).searchParams.get("token");
  if (!token) throw new Error(`No token in ${link}`);
  return token;
}
