/**
 * Mails a participant the join link of their visit, through the portal's mailer (an .eml file in
 * DATA_DIR/mail and the log when no SMTP relay is set). A participant without an email address
 * gets nothing: the visits page then offers the clinician a mail of their own.
 */
import type { AccountMailDeps } from "../users/account-mail.ts";
import type { Visit } from "../../core/contracts/visits.ts";
import { joinLink, visitInvitationMessage } from "./join-links.ts";
import type { Invitation } from "./visit-records.ts";

/** Answers the link, or undefined when the participant has no address to mail it to. */
export async function sendVisitInvitation(
  deps: Pick<AccountMailDeps, "mailer" | "publicUrl">,
  visit: Visit,
  invitation: Invitation,
) {
  if (!invitation.to) return undefined;
  const link = joinLink(deps.publicUrl, invitation.secret);
  await deps.mailer.send(
    visitInvitationMessage(
      invitation.to,
      {
        fname: invitation.fname,
        studyName: invitation.studyName,
        visitTime: new Date(visit.visit_time),
        visitDuration: visit.visit_duration,
        isAdhoc: visit.is_adhoc,
        isRecorded: visit.is_recorded,
      },
      link,
    ),
  );
  return link;
}
