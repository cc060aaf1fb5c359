import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEml } from "../../tests/support/mail-drop.ts";
import { passwordResetMessage } from "./account-messages.ts";
import { createMailer } from "./mailer.ts";

const FROM = "ClinRO test <portal@test.example>";

function recordingLog() {
  const entries: { details: object; message: string }[] = [];
  return { entries, info: (details: object, message: string) => entries.push({ details, message }) };
}

/** Just enough of an SMTP server to take one message at a time and keep what it was sent. */
function startFakeSmtp() {
  const received: string[] = [];
  const server: Server = createServer((socket) => {
    let data: string | undefined;
    let buffer = "";
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line === ".") {
            received.push(data);
            data = undefined;
            socket.write("250 OK queued\r\n");
          } else data += `${line.startsWith("..") ? line.slice(1) : line}\r\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write("250 fake\r\n");
        else if (/^DATA/i.test(line)) {
          data = "";
          socket.write("354 go ahead\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  return new Promise<{ url: string; received: string[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe("the mailer", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "clinro-mailer-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("without an SMTP URL writes each message as an .eml file to the drop directory and logs its link", async () => {
    const log = recordingLog();
    const dropDir = path.join(dataDir, "mail");
    const mailer = createMailer({ from: FROM, dropDir }, log);
    expect(mailer.kind).toBe("drop");
    const link = "https://portal.test.example/users/reset?token=abc_DEF-123";
    await mailer.send(passwordResetMessage("someone@test.example", link, 60));
    mailer.close();

    const files = await readdir(dropDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const mail = parseEml(files[0]!, await readFile(path.join(dropDir, files[0]!), "utf8"));
    expect(mail).toMatchObject({ to: "someone@test.example", from: FROM, links: [link] });
    expect(mail.subject).toMatch(/reset/i);
    expect(mail.html).toContain(`href="${link}"`);

    expect(log.entries).toHaveLength(1);
    // The link is a credential: the log names the .eml file to open, never the link.
    expect(log.entries[0]!.message).toContain(files[0]!);
    expect(JSON.stringify(log.entries[0])).not.toContain("abc_DEF-123");
  });

  it("with an SMTP URL sends through that relay, and keeps the link out of the log", async () => {
    const smtp = await startFakeSmtp();
    try {
      const log = recordingLog();
      const dropDir = path.join(dataDir, "unused-drop");
      const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, dropDir }, log);
      expect(mailer.kind).toBe("smtp");
      const link = "https://portal.test.example/users/reset?token=smtp_TOKEN-42";
      await mailer.send(passwordResetMessage("relay@test.example", link, 60));
      mailer.close();

      expect(smtp.received).toHaveLength(1);
      const mail = parseEml("smtp", smtp.received[0]!);
      expect(mail).toMatchObject({ to: "relay@test.example", from: FROM, links: [link] });
      expect(JSON.stringify(log.entries)).not.toContain("smtp_TOKEN-42");
      await expect(readdir(dropDir)).rejects.toThrow();
    } finally {
      await smtp.close();
    }
  });

  it("sends attachments, and the .eml drop keeps them byte for byte", async () => {
    // Bytes that are not text (every value 0 to 255), like a PDF's binary streams.
    const pdf = new Uint8Array([
      ...Buffer.from("%PDF-1.7\n"),
      ...Array.from({ length: 256 }, (_, index) => index),
    ]);
    const attachment = { filename: "consentimiento-José.pdf", content: pdf, contentType: "application/pdf" };
    const message = {
      to: "participant@test.example",
      subject: "Su consentimiento",
      text: "Adjuntamos su consentimiento firmado.",
      html: "<p>Adjuntamos su consentimiento firmado.</p>",
      attachments: [attachment],
    };

    const dropDir = path.join(dataDir, "attachments");
    const dropped = createMailer({ from: FROM, dropDir }, recordingLog());
    await dropped.send(message);
    dropped.close();
    const [file] = await readdir(dropDir);
    const mail = parseEml(file!, await readFile(path.join(dropDir, file!), "utf8"));
    expect(mail.text.trim()).toBe("Adjuntamos su consentimiento firmado.");
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({
      filename: "consentimiento-José.pdf",
      contentType: "application/pdf",
    });
    expect(Buffer.compare(mail.attachments[0]!.content, Buffer.from(pdf))).toBe(0);

    const smtp = await startFakeSmtp();
    try {
      const relayed = createMailer({ smtpUrl: smtp.url, from: FROM, dropDir }, recordingLog());
      await relayed.send(message);
      relayed.close();
      expect(smtp.received).toHaveLength(1);
      const sent = parseEml("smtp", smtp.received[0]!);
      expect(sent.attachments.map((item) => item.filename)).toEqual(["consentimiento-José.pdf"]);
      expect(Buffer.compare(sent.attachments[0]!.content, Buffer.from(pdf))).toBe(0);
    } finally {
      await smtp.close();
    }
  });
});
