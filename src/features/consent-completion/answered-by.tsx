/**
 * Who gave a pre-filled answer: a consent shows the answers of earlier sessions
 * read-only (the participant's decision to the clinician, both to the witness); each says whose
 * answer it is, so nobody takes the participant's choice for the clinician's. The person is named
 * from what the server holds: the participant, or the printed name of the signature of that side
 * (a caregiver who signed for the participant answered for them). A signature names its signer in
 * its own manifestation, and a prompt holds no answer: neither gets the note.
 */
import { Trans } from "@lingui/react/macro";
import type { SignatureManifestation } from "../../../core/contracts/consent-schemas.ts";
import type { SignerRole } from "../../../core/contracts/roles.ts";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import { holdsAnswer } from "../../../core/survey-engine/answer-state.ts";

export type AnsweredBy = { role: SignerRole; name: string | undefined };

/** Whose answer a read-only question of a consent holds; undefined when it gets no note. */
export function answeredBy(
  question: Question,
  participantName: string,
  signatures: readonly Pick<SignatureManifestation, "role" | "printed_name">[],
): AnsweredBy | undefined {
  if (!holdsAnswer(question) || question.type === "consent_signature") return undefined;
  const signerOf = (role: SignerRole) =>
    signatures.find((signature) => signature.role === role)?.printed_name.trim() || undefined;
  const side = question.attributes.user_type;
  if (side === "clinro" || side === "witness") return { role: side, name: signerOf(side) };
  const caregiver = signerOf("caregiver");
  if (caregiver !== undefined && signerOf("participant") === undefined) {
    return { role: "caregiver", name: caregiver };
  }
  return { role: "participant", name: participantName.trim() || undefined };
}

/** The note under a pre-filled answer: "Answered by <name>, <who they are>". */
export function AnsweredByNote({ by }: { by: AnsweredBy }) {
  const { name } = by;
  return (
    <p className="answered-by" data-testid="answered-by">
      {by.role === "participant" ? (
        name ? (
          <Trans id="consent_answered_by_participant">Answered by {name}, the participant</Trans>
        ) : (
          <Trans id="consent_answered_by_participant_unnamed">Answered by the participant</Trans>
        )
      ) : by.role === "caregiver" ? (
        <Trans id="consent_answered_by_caregiver">
          Answered by {name}, the participant's legally authorised representative
        </Trans>
      ) : by.role === "clinro" ? (
        name ? (
          <Trans id="consent_answered_by_clinro">Answered by {name}, who obtained consent</Trans>
        ) : (
          <Trans id="consent_answered_by_clinro_unnamed">Answered by the person who obtained consent</Trans>
        )
      ) : name ? (
        <Trans id="consent_answered_by_witness">Answered by {name}, the impartial witness</Trans>
      ) : (
        <Trans id="consent_answered_by_witness_unnamed">Answered by the impartial witness</Trans>
      )}
    </p>
  );
}
