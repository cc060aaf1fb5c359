/**
 * Stores a checked submission and completes its instrument instance, in the caller's
 * transaction. Owns the choice of instance: the one the submission names
 * (instrument_instance_id), else the participant's oldest open instance of the instrument, else
 * a new instance made completed. Checking the answers is the engine's
 * (validate-submission.ts); access and permissions are the route's.
 */
import { and, asc, eq } from "drizzle-orm";
import type { SubmittedScore } from "../../core/contracts/instrument-schemas.ts";
import type { SubmissionPayload } from "../../core/contracts/survey-submission.ts";
import { instrumentInstances, instrumentSubmissions, instruments } from "../db/schema.ts";
import type { Transaction } from "../db/client.ts";
import { isOpenInstance } from "./open-instances.ts";

export type SubmissionToRecord = {
  participantId: number;
  instrumentId: number;
  /** The signed-in user: the completer, whatever the payload says. */
  user: { id: number; username: string };
  payload: SubmissionPayload;
  versionNumber: number;
  /** The scores the server computed from the answers. */
  scores: SubmittedScore[];
  now: Date;
};

export type RecordedSubmission = {
  submissionId: number;
  instrumentInstanceId: number;
  alreadyCompleted: boolean;
};

async function lockNamedInstance(tx: Transaction, instanceId: number) {
  const [instance] = await tx
    .select()
    .from(instrumentInstances)
    .where(eq(instrumentInstances.id, instanceId))
    .for("update");
  return instance;
}

async function lockOldestOpenInstance(
  tx: Transaction,
  participantId: number,
  instrumentId: number,
  now: Date,
) {
  const [row] = await tx
    .select({ instance: instrumentInstances })
    .from(instrumentInstances)
    .innerJoin(instruments, eq(instruments.id, instrumentInstances.instrumentId))
    .where(
      and(
        eq(instrumentInstances.participantId, participantId),
        eq(instrumentInstances.instrumentId, instrumentId),
        isOpenInstance(now),
      ),
    )
    .orderBy(asc(instrumentInstances.startDate), asc(instrumentInstances.id))
    .limit(1)
    .for("update", { of: instrumentInstances });
  return row?.instance;
}

export async function recordSubmission(
  tx: Transaction,
  input: SubmissionToRecord,
): Promise<RecordedSubmission> {
  const { participantId, instrumentId, user, payload } = input;
  const completion = new Date(payload.completion);
  let instance =
    payload.instrument_instance_id === undefined
      ? await lockOldestOpenInstance(tx, participantId, instrumentId, input.now)
      : await lockNamedInstance(tx, payload.instrument_instance_id);
  if (instance && (instance.participantId !== participantId || instance.instrumentId !== instrumentId)) {
    // The route checked this before the transaction; a row cannot move between participants.
    throw new Error(
      `Instance ${instance.id} is not of participant ${participantId} and instrument ${instrumentId}`,
    );
  }

  let alreadyCompleted = false;
  if (!instance) {
    // Nothing was scheduled (or it expired): the work done is recorded on an instance of its own.
    [instance] = await tx
      .insert(instrumentInstances)
      .values({
        instrumentId,
        participantId,
        startDate: completion,
        expiration: null,
        completion,
        whoCompleted: user.id,
      })
      .returning();
  } else if (instance.completion !== null) {
    // Completed already, by a colleague or on another device. A clinician's work is never refused
    // for that: the submission is stored below all the same, and the instance keeps its first
    // completion and completer.
    alreadyCompleted = true;
  } else {
    await tx
      .update(instrumentInstances)
      .set({ completion, whoCompleted: user.id })
      .where(eq(instrumentInstances.id, instance.id));
  }
  const instrumentInstanceId = instance!.id;

  const [stored] = await tx
    .insert(instrumentSubmissions)
    .values({
      instrumentId,
      participantId,
      instrumentInstanceId,
      clientInstanceId: String(payload.instance_id),
      versionNumber: input.versionNumber,
      submittedBy: user.id,
      completedAt: completion,
      // The completer is whoever signed in, never what the body claims.
      payload: { ...payload, completed_by: user.id, identity: user.username },
      scores: input.scores,
    })
    .returning({ id: instrumentSubmissions.id });
  return { submissionId: stored!.id, instrumentInstanceId, alreadyCompleted };
}
