/**
 * The enrolment call as an outbox write (offline enrolment, provisional-participants.ts). Apart
 * from enqueue.ts: only the add form needs the enrolment contract, not every page that queues.
 */
import { enrolParticipantCall } from "../../core/contracts/calls/enrolment-calls.ts";
import type { EnrolParticipantRequest, ParticipantFields } from "../../core/contracts/enrolment.ts";
import { callPath } from "../../core/contracts/http/define-call.ts";
import type { StorableWrite } from "./enqueue.ts";

/**
 * POST /control/studies/{studyId}/sites/{siteId}/participants as an outbox write: the
 * participant's fields and the client_id the device named them with (the call is idempotent on
 * both the Idempotency-Key and the client_id).
 */
export function enrolmentWrite(
  studyId: number,
  siteId: number,
  fields: ParticipantFields,
  clientId: string,
): StorableWrite {
  const body: EnrolParticipantRequest = { ...fields, client_id: clientId };
  return {
    kind: "enrolment",
    label: `${fields.subject_id} ${fields.fname} ${fields.lname}`,
    request: {
      method: enrolParticipantCall.method,
      path: callPath(enrolParticipantCall, { studyId, siteId }),
      body: { type: "json", value: body },
    },
  };
}
