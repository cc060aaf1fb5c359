/**
 * `clinro visit schedule`: schedules a virtual visit for a participant of a study site, as a
 * coordinator's POST would, and mails the participant the join link (the same mailer settings as
 * the server: SMTP_URL, else an .eml file in DATA_DIR/mail). Prints the visit and the link.
 */
import { VISIT_DURATION_MAX } from "../../core/contracts/visits.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { HttpError } from "../http/errors.ts";
import { mailFromEnv } from "./cli-mail.ts";
import type { AccountMailDeps } from "../users/account-mail.ts";
import { sendVisitInvitation } from "../visits/visit-invitations.ts";
import { scheduleVisit } from "../visits/visit-records.ts";

export const VISIT_USAGE = `  npx clinro visit schedule --study ID --site ID --participant ID --at ISO --minutes N [--recorded] [--adhoc]

  --at           the start, an ISO date and time with its offset, e.g. 2026-12-01T15:30:00+01:00
  --minutes      how long it lasts (1 to ${VISIT_DURATION_MAX})
  --recorded     the visit is recorded (the room shows it)
  --adhoc        an ad hoc visit: listed until removed, its link works for 24 hours`;

export type VisitScheduleCommand = {
  kind: "visit";
  studyId: number;
  siteId: number;
  participantId: number;
  visitTime: Date;
  visitDuration: number;
  isRecorded: boolean;
  isAdhoc: boolean;
};

export type VisitArgs = {
  study?: string;
  site?: string;
  participant?: string;
  at?: string;
  minutes?: string;
  recorded?: boolean;
  adhoc?: boolean;
};

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function id(value: string | undefined, flag: string) {
  if (value === undefined) return `--${flag} is required`;
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    return `--${flag} must be an id (a positive whole number), not "${value}"`;
  }
  return Number(value);
}

/** The command, or the usage problem to print. */
export function parseVisitSchedule(values: VisitArgs): VisitScheduleCommand | string {
  const studyId = id(values.study, "study");
  if (typeof studyId === "string") return studyId;
  const siteId = id(values.site, "site");
  if (typeof siteId === "string") return siteId;
  const participantId = id(values.participant, "participant");
  if (typeof participantId === "string") return participantId;
  if (values.at === undefined) return "--at is required";
  if (!ISO_WITH_OFFSET.test(values.at) || Number.isNaN(Date.parse(values.at))) {
    return `--at must be an ISO date and time with an offset, e.g. 2026-12-01T15:30:00+01:00; not "${values.at}"`;
  }
  if (values.minutes === undefined) return "--minutes is required";
  const minutes = Number(values.minutes);
  if (!/^\d+$/.test(values.minutes) || minutes < 1 || minutes > VISIT_DURATION_MAX) {
    return `--minutes must be a whole number from 1 to ${VISIT_DURATION_MAX}, not "${values.minutes}"`;
  }
  return {
    kind: "visit",
    studyId,
    siteId,
    participantId,
    visitTime: new Date(values.at),
    visitDuration: minutes,
    isRecorded: values.recorded ?? false,
    isAdhoc: values.adhoc ?? false,
  };
}

export async function runVisitSchedule(
  command: VisitScheduleCommand,
  output: { out: (line: string) => void; err: (line: string) => void },
  handle: DatabaseHandle,
  mail: Pick<AccountMailDeps, "mailer" | "publicUrl"> | undefined,
): Promise<number> {
  let scheduled: Awaited<ReturnType<typeof scheduleVisit>>;
  try {
    scheduled = await handle.db.transaction((tx) =>
      scheduleVisit(
        tx,
        {
          studyId: command.studyId,
          siteId: command.siteId,
          participantId: command.participantId,
          visitTime: command.visitTime,
          visitDuration: command.visitDuration,
          isRecorded: command.isRecorded,
          isAdhoc: command.isAdhoc,
        },
        new Date(),
      ),
    );
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    output.err(
      `${error.message.replace(/^Invalid request\. /, "").replace(/\.$/, "")}; nothing was scheduled.`,
    );
    return 1;
  }
  const { visit, invitation } = scheduled;
  output.out(
    `Scheduled visit ${visit.id} (room ${visit.room_name}) for ${visit.fname} ${visit.lname} at ${visit.visit_time}, ${visit.visit_duration} minutes${visit.is_recorded ? ", recorded" : ""}${visit.is_adhoc ? ", ad hoc" : ""}.`,
  );
  if (!invitation) return 0;
  const mailer = mail ?? mailFromEnv();
  try {
    const link = await sendVisitInvitation(mailer, visit, invitation);
    if (link) output.out(`Join link mailed to ${invitation.to}: ${link}`);
    else output.out("The participant has no email address: no join link was mailed.");
  } finally {
    if (!mail) mailer.mailer.close();
  }
  return 0;
}
