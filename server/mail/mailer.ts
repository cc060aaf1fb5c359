/**
 * Outgoing mail through nodemailer. With an SMTP URL every message goes to that relay. Without
 * one, each message is written as an .eml file into the drop directory (DATA_DIR/mail), and the
 * log says which file, so that a portal on one machine without a mail relay can still activate
 * new users: whoever runs it opens the file. The link itself never reaches the log.
 *
 * Owns the transport only; what the messages say is in account-messages.ts.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { makePrivateDir } from "../private-dir.ts";

/** A file sent with a message (a consent PDF): kept in the .eml drop as well. */
export type MailAttachment = {
  filename: string;
  content: Uint8Array;
  contentType: string;
};

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** The one link the message is about (a credential: never logged). */
  link?: string;
};

/** The part of Fastify's (pino) logger the mailer uses. */
export type MailLog = {
  info: (details: object, message: string) => void;
};

export type MailSettings = {
  /** smtp://user:password@host:587 or smtps://...; unset writes .eml files to dropDir. */
  smtpUrl?: string;
  from: string;
  dropDir: string;
};

export type Mailer = {
  readonly kind: "smtp" | "drop";
  send: (message: MailMessage) => Promise<void>;
  close: () => void;
};

function toNodemailer(attachments: MailAttachment[] | undefined) {
  return attachments?.map(({ filename, content, contentType }) => ({
    filename,
    content: Buffer.from(content),
    contentType,
  }));
}

export function createMailer(settings: MailSettings, log: MailLog): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return {
      kind: "smtp",
      async send({ to, subject, text, html, attachments }) {
        await transport.sendMail({
          from: settings.from,
          to,
          subject,
          text,
          html,
          attachments: toNodemailer(attachments),
        });
        // The link is a credential: with a real relay it stays out of the log.
        log.info({ mail: { to, subject } }, "Mail sent");
      },
      close: () => transport.close(),
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  let written = 0;
  return {
    kind: "drop",
    async send({ to, subject, text, html, link, attachments }) {
      const info = await transport.sendMail({
        from: settings.from,
        to,
        subject,
        text,
        html,
        attachments: toNodemailer(attachments),
      });
      await makePrivateDir(settings.dropDir);
      // Time and a counter first, so that a listing reads in the order the mail was written;
      // the random part keeps several server processes from writing to one name.
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const order = String(written++).padStart(6, "0");
      const file = path.join(settings.dropDir, `${stamp}-${order}-${randomBytes(4).toString("hex")}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // The link is a credential (an account token, a visit's join secret): it stays in the
      // file, readable by the portal's user only, never in the log.
      log.info(
        { mail: { to, subject, file } },
        link
          ? `Mail for ${to} written to ${file}; open it for its link`
          : `Mail for ${to} written to ${file}`,
      );
    },
    close: () => transport.close(),
  };
}
