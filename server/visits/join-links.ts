/**
 * The participant's join link: /join/{secret}, where the secret is 32 random bytes (base64url)
 * of which only the SHA-256 is stored, so a copy of the database holds no usable link. One
 * secret opens one room, and only inside its window: from JOIN_OPENS_BEFORE_MIN before the
 * visit to its end; an ad hoc visit's for ADHOC_JOIN_VALID_H from its creation.
 */
import { createHash, randomBytes } from "node:crypto";
import { ADHOC_JOIN_VALID_H, JOIN_OPENS_BEFORE_MIN, joinPagePath } from "../../core/contracts/visits.ts";
import { compose, PRODUCT } from "../mail/account-messages.ts";
import type { MailMessage } from "../mail/mailer.ts";

const MINUTE_MS = 60_000;

export function newJoinSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function hashJoinSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export type VisitTiming = {
  visitTime: Date;
  visitDuration: number;
  isAdhoc: boolean;
  createdAt: Date;
};

export function visitEnd(visit: Pick<VisitTiming, "visitTime" | "visitDuration">): Date {
  return new Date(visit.visitTime.getTime() + visit.visitDuration * MINUTE_MS);
}

/** Ad hoc visits never end (the visits page always lists them); others at start plus duration. */
export function hasEnded(visit: Pick<VisitTiming, "visitTime" | "visitDuration" | "isAdhoc">, now: Date) {
  return !visit.isAdhoc && visitEnd(visit).getTime() <= now.getTime();
}

/** When the visit's join link opens and closes. */
export function joinWindow(visit: VisitTiming): { opens: Date; closes: Date } {
  if (visit.isAdhoc) {
    return {
      opens: visit.createdAt,
      closes: new Date(visit.createdAt.getTime() + ADHOC_JOIN_VALID_H * 60 * MINUTE_MS),
    };
  }
  return {
    opens: new Date(visit.visitTime.getTime() - JOIN_OPENS_BEFORE_MIN * MINUTE_MS),
    closes: visitEnd(visit),
  };
}

export function isInsideJoinWindow(visit: VisitTiming, now: Date) {
  const { opens, closes } = joinWindow(visit);
  return now.getTime() >= opens.getTime() && now.getTime() < closes.getTime();
}

/** A URL with any join link secret in it replaced, for logs. */
export function redactJoinSecret(url: string) {
  return url.replace(/\/join\/[^/?#]+/g, "/join/[secret]");
}

export function joinLink(publicUrl: string, secret: string) {
  // Relative to PUBLIC_URL, so a portal served under a path keeps it.
  return new URL(joinPagePath(secret).replace(/^\//, ""), `${publicUrl.replace(/\/+$/, "")}/`).toString();
}

/** The mail that brings a participant their visit's link. Times are in UTC: the server knows no
 * participant's time zone, and the join page shows the time in theirs. */
export function visitInvitationMessage(
  to: string,
  details: {
    fname: string;
    studyName: string;
    visitTime: Date;
    visitDuration: number;
    isAdhoc: boolean;
    isRecorded: boolean;
  },
  link: string,
): MailMessage {
  const when = details.isAdhoc
    ? `The link works for the next ${ADHOC_JOIN_VALID_H} hours.`
    : `It starts ${details.visitTime.toISOString().slice(0, 16).replace("T", " at ")} UTC and lasts ${details.visitDuration} minutes; the link opens ${JOIN_OPENS_BEFORE_MIN} minutes before.`;
  return compose(
    to,
    `Your video visit for ${details.studyName}`,
    [
      `Hello ${details.fname || to}, your study team has set up a video visit with you for ${details.studyName}. ${when}`,
      `Open the link on a phone, tablet or computer with a camera and microphone, and allow the browser to use them. You need no account or password.${details.isRecorded ? " This visit will be recorded." : ""}`,
      `Do not share the link: it opens your visit. If you did not expect this mail, contact your study site.`,
    ],
    { href: link, label: `Join your ${PRODUCT} video visit` },
  );
}
