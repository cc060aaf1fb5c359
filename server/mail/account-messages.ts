/**
 * What account mail says: activation, password reset and username reminder. Plain text and
 * HTML carry the same words and the same link.
 */
import type { MailMessage } from "./mailer.ts";

export const PRODUCT = "ClinRO portal";

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  link: { href: string; label: string },
) {
  const text = [...paragraphs.slice(0, 1), `${link.label}: ${link.href}`, ...paragraphs.slice(1)].join(
    "\n\n",
  );
  const html = [
    `<p>${escapeHtml(paragraphs[0] ?? "")}</p>`,
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    `<p>Or open this address: ${escapeHtml(link.href)}</p>`,
    ...paragraphs.slice(1).map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
  ].join("\n");
  return { to, subject, text: `${text}\n`, html, link: link.href } satisfies MailMessage;
}

export function activationMessage(to: string, name: string, link: string, validDays: number): MailMessage {
  return compose(
    to,
    `Activate your ${PRODUCT} account`,
    [
      `Hello ${name || to}, an account on the ${PRODUCT} has been made for you, with the username ${to}. Follow the link to choose your password.`,
      `The link works once, for ${validDays} days. If it has expired, ask your administrator for a new one, or use 'Forgot password' on the sign-in page.`,
    ],
    { href: link, label: "Choose your password" },
  );
}

export function passwordResetMessage(to: string, link: string, validMinutes: number): MailMessage {
  return compose(
    to,
    `Reset your ${PRODUCT} password`,
    [
      `Someone, probably you, asked to reset the password of the ${PRODUCT} account ${to}. Follow the link to choose a new password.`,
      `The link works once, for ${validMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
    ],
    { href: link, label: "Choose a new password" },
  );
}

export function usernameReminderMessage(to: string, loginLink: string): MailMessage {
  return compose(
    to,
    `Your ${PRODUCT} username`,
    [
      `Your username for the ${PRODUCT} is this email address: ${to}.`,
      `If you do not remember your password either, choose 'Forgot password' on the sign-in page. If you did not ask for this mail, ignore it.`,
    ],
    { href: loginLink, label: "Sign in" },
  );
}
