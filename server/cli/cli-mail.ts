/**
 * The mail of the clinro command: the server's settings (SMTP_URL, else an .eml file in
 * DATA_DIR/mail), so that what a command sends arrives as the server's mail does.
 */
import path from "node:path";
import { readEnv } from "../env.ts";
import { createMailer, type MailLog } from "../mail/mailer.ts";
import type { AccountMailDeps } from "../users/account-mail.ts";

export type CliMail = Pick<AccountMailDeps, "mailer" | "publicUrl">;

/** The server's mailer and public URL, from the environment; `log` hears where a mail went. */
export function mailFromEnv(log: MailLog = { info: () => {} }): CliMail {
  const env = readEnv();
  const mailer = createMailer(
    { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dropDir: path.join(env.DATA_DIR, "mail") },
    log,
  );
  return { mailer, publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` };
}
