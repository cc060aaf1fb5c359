/**
 * How exported resources name people: by identifier, because an export holds no Patient or
 * Practitioner resources. A participant by their subject id in the study, or, when they were
 * enrolled without one, by the portal's participant id under its own system (FHIR allows no
 * empty identifier); a staff member by their sign-in email.
 */
import type { ExportParticipant, ExportUser } from "../export-source.ts";
import { participantIdSystem, staffIdentifierSystem, subjectIdSystem } from "./canonical-url.ts";
import type { Reference } from "./fhir-resources.ts";

export function participantReference(
  participant: ExportParticipant,
  studyId: number,
  publicUrl: string | undefined,
): Reference {
  const subjectId = participant.subjectId.trim();
  if (subjectId === "") {
    return {
      type: "Patient",
      identifier: { system: participantIdSystem(studyId, publicUrl), value: String(participant.id) },
    };
  }
  return {
    type: "Patient",
    identifier: { system: subjectIdSystem(studyId, publicUrl), value: participant.subjectId },
    display: participant.subjectId,
  };
}

export function staffReference(
  user: ExportUser | undefined,
  userId: number,
  publicUrl: string | undefined,
): Reference {
  return {
    type: "Practitioner",
    identifier: { system: staffIdentifierSystem(publicUrl), value: user?.email || String(userId) },
    ...(user && user.name.trim() !== "" ? { display: user.name } : {}),
  };
}
