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
    expect(log.entries[0]!.message).toContain(link);
    expect(log.entries[0]!.details).toMatchObject({ mail: { to: "someone@test.example", link } });
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
});
