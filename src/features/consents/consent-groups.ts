/**
 * The participants of one consent, as spec 02 section 4 groups them: the server's status to a
 * group, the group each viewer sees (a witness and a non-witness wait on different signers), the
 * action of each group, and the search boxes of the two consent pages (section 5). Plain data: the
 * page turns groups and actions into texts and controls.
 */
import type { ConsentParticipantStatus } from "../../../core/contracts/consents.ts";
import { isWitness } from "../../../core/contracts/roles.ts";

export const CONSENT_GROUPS = [
  "signatureRequired",
  "witnessSignatureRequired",
  "pendingSigneeCompletion",
  "pendingCompletion",
  "completed",
  "declined",
] as const;
/**
 * The groups, in the order the page shows them: first what the viewer must sign, then what waits
 * on someone else, then what is finished.
 */
export type ConsentGroup = (typeof CONSENT_GROUPS)[number];

const GROUP_OF_STATUS: Record<ConsentParticipantStatus, ConsentGroup> = {
  awaiting_participant: "pendingCompletion",
  awaiting_clinro: "signatureRequired",
  awaiting_witness: "witnessSignatureRequired",
  complete: "completed",
  declined: "declined",
};

/** Spec 02 section 4, "Server value to group". */
export function groupOfStatus(status: ConsentParticipantStatus): ConsentGroup {
  return GROUP_OF_STATUS[status];
}

/**
 * The group a viewer sees: a witness sees signatureRequired (a clinician's signature is missing)
 * as pendingSigneeCompletion; a non-witness sees witnessSignatureRequired so.
 */
export function viewerGroupOfStatus(
  status: ConsentParticipantStatus,
  role: string | undefined,
): ConsentGroup {
  const group = groupOfStatus(status);
  const witness = isWitness(role);
  if (witness && group === "signatureRequired") return "pendingSigneeCompletion";
  if (!witness && group === "witnessSignatureRequired") return "pendingSigneeCompletion";
  return group;
}

/** What a participant's row offers. */
export type ConsentAction =
  /** A button that opens the consent completion route. */
  | { kind: "open" }
  /** The text 'pending', no button. */
  | { kind: "pending" }
  /** A button that opens a mail compose addressed to the participant's email. */
  | { kind: "mail"; href: string }
  /**
   * 'Start consent': opens the consent completion route to sign in person on the tablet, with the
   * mail compose button beside it when the participant has no email (mailHref).
   */
  | { kind: "start"; mailHref?: string }
  /** A 'see consent' link that downloads the completed consent. */
  | { kind: "download" }
  | { kind: "none" };

export type GroupedParticipant = {
  email: string | null;
};

/**
 * Spec 02 section 4, "Group display", read literally. pendingCompletion: no button when the
 * participant has an email, otherwise the mail compose button (addressed to the participant's
 * email, which is then empty: the clinician types the address). witnessSignatureRequired is only
 * ever seen by a witness (see viewerGroupOfStatus), for whom it is their own signature to give:
 * it opens the consent, as signatureRequired does for a clinician.
 *
 * Given the viewer's role, a viewer who may take the participant's signature in person (any role
 * but a witness: the clinician consent call) is offered 'Start consent' in pendingCompletion,
 * beside the mail compose button when there is one. The product's consent is signed in
 * person on the tablet, so a coordinator expects to start it from here; the spec's rows name
 * only the mail action.
 */
export function actionOfGroup(
  group: ConsentGroup,
  participant: GroupedParticipant,
  role?: string,
): ConsentAction {
  if (group === "pendingCompletion" && mayStartConsent(role)) {
    return hasEmail(participant.email)
      ? { kind: "start" }
      : { kind: "start", mailHref: mailComposeHref(participant.email) };
  }
  switch (group) {
    case "signatureRequired":
    case "witnessSignatureRequired":
      return { kind: "open" };
    case "pendingSigneeCompletion":
      return { kind: "pending" };
    case "pendingCompletion":
      return hasEmail(participant.email)
        ? { kind: "none" }
        : { kind: "mail", href: mailComposeHref(participant.email) };
    case "completed":
      return { kind: "download" };
    case "declined":
      return { kind: "none" };
  }
}

/** Whether a study role may start a participant's consent in person: any role but a witness. */
export function mayStartConsent(role: string | undefined) {
  return role !== undefined && role.trim() !== "" && !isWitness(role);
}

function hasEmail(email: string | null) {
  return email !== null && email.trim() !== "";
}

/** A mailto: link addressed to the participant's email (empty when there is none). */
export function mailComposeHref(email: string | null) {
  return `mailto:${encodeURIComponent(email?.trim() ?? "")}`;
}

export type ParticipantGroup<P> = { group: ConsentGroup; participants: P[] };

/**
 * The viewer's groups in CONSENT_GROUPS order, leaving out empty ones; participants keep the
 * server's order (last name, first name).
 */
export function groupParticipants<P extends { consent_participant_status: ConsentParticipantStatus }>(
  participants: readonly P[],
  role: string | undefined,
): ParticipantGroup<P>[] {
  const byGroup = new Map<ConsentGroup, P[]>();
  for (const participant of participants) {
    const group = viewerGroupOfStatus(participant.consent_participant_status, role);
    const members = byGroup.get(group);
    if (members) members.push(participant);
    else byGroup.set(group, [participant]);
  }
  return CONSENT_GROUPS.flatMap((group) => {
    const members = byGroup.get(group);
    return members ? [{ group, participants: members }] : [];
  });
}

/** The search text as it is matched: trimmed and lower-cased; blank matches everything. */
export function normalizeFilterText(text: string) {
  return text.trim().toLocaleLowerCase();
}

/** Spec 02 section 5: the search buttons are disabled while the trimmed text is blank. */
export function isBlankFilter(text: string) {
  return normalizeFilterText(text) === "";
}

function contains(value: string | number, needle: string) {
  return String(value).toLocaleLowerCase().includes(needle);
}

export type SearchableParticipant = {
  id: number;
  firstname: string;
  lastname: string;
  subject_id: string;
};

/** First name, last name, subject id or participant id: case-insensitive substring. */
export function participantMatches(participant: SearchableParticipant, text: string) {
  const needle = normalizeFilterText(text);
  if (needle === "") return true;
  return [participant.firstname, participant.lastname, participant.subject_id, participant.id].some((value) =>
    contains(value, needle),
  );
}

/** The consent search list's box: the title, case-insensitive substring. */
export function consentTitleMatches(consent: { title: string }, text: string) {
  const needle = normalizeFilterText(text);
  return needle === "" || contains(consent.title, needle);
}
