/**
 * The set-up of the API tests that need real submissions in the database (the exports, the
 * imported instruments taken back in): instrument and user ids looked up by slug and username, a
 * new participant, a definition as the definition call serves it, and a submission made through
 * the submission call with a payload built by payloadFor (tests/support/submissions.ts).
 * The submission and definition calls are checked to answer 201 and 200.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { instruments, participants, users } from "../../server/db/schema.ts";
import type { ApiHarness } from "./api-harness.ts";
import { chosen, definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "./submissions.ts";

/** The demo study most tests submit in, its coordinator and its Boston site. */
export const DEMO_STUDY_ID = 101;
export const DEMO_COORDINATOR = "coordinator@demo.test";
export const BOSTON_SITE_ID = 1011;

/** The id of the study's instrument with that slug. */
export async function instrumentIdBySlug(api: ApiHarness, studyId: number, slug: string): Promise<number> {
  const [row] = await api.db
    .select({ id: instruments.id })
    .from(instruments)
    .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
  if (!row) throw new Error(`study ${studyId} has no instrument ${slug}`);
  return row.id;
}

/** The id of the user with that username. */
export async function userIdOf(api: ApiHarness, username: string): Promise<number> {
  const [row] = await api.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

export type NewParticipant = {
  studyId?: number;
  siteId?: number;
  fname: string;
  lname: string;
  subjectId?: string;
};

/** Inserts a participant (in the demo study at Boston unless told otherwise) and answers its id. */
export async function newParticipant(api: ApiHarness, participant: NewParticipant): Promise<number> {
  const [row] = await api.db
    .insert(participants)
    .values({
      studyId: participant.studyId ?? DEMO_STUDY_ID,
      siteId: participant.siteId ?? BOSTON_SITE_ID,
      fname: participant.fname,
      lname: participant.lname,
      subjectId: participant.subjectId,
    })
    .returning({ id: participants.id });
  return row!.id;
}

/** The demo study's instrument definition as the definition call serves it to the token's user. */
export async function servedDefinition(
  api: ApiHarness,
  token: string,
  instrumentId: number,
  slug: string,
): Promise<SurveyDefinition> {
  const response = await api.request(
    "GET",
    `/control/admin/studies/${DEMO_STUDY_ID}/instruments/${instrumentId}/${slug}`,
    { token },
  );
  expect(response.statusCode, response.body).toBe(200);
  return parseDefinitionOrThrow(definitionJsonOf(response));
}

export type SubmissionThroughApi = {
  /** The submitting user's token; `user` is who the payload names as completing it. */
  token: string;
  user: { id: number; username: string };
  participantId: number;
  instrumentId: number;
  form: SurveyDefinition;
  answers: Record<string, AnswerEntry[]>;
  /** The payload's completion time; now when not given. */
  completion?: Date;
  /** Headers beside the idempotency key (e.g. the app's version). */
  headers?: Record<string, string>;
};

/** What the submission call answers with 201. */
export type SubmissionReceipt = { id: number; scores: unknown };

/** POSTs the submission with a fresh instance id and idempotency key; it must be taken (201). */
export async function postSubmission(
  api: ApiHarness,
  submission: SubmissionThroughApi,
): Promise<SubmissionReceipt> {
  const payload = payloadFor(submission.form, submission.answers, {
    user: submission.user,
    instrumentId: submission.instrumentId,
    instanceId: randomUUID(),
    completion: submission.completion,
  });
  const response = await api.request(
    "POST",
    `/control/clinro/participant/${submission.participantId}/instruments/${submission.instrumentId}/submission`,
    {
      token: submission.token,
      body: [payload],
      headers: { ...submission.headers, "idempotency-key": randomUUID() },
    },
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as SubmissionReceipt;
}

/** POSTs the submission (see postSubmission) as the demo coordinator, signed in for it. */
export async function postSubmissionAsDemoCoordinator(
  api: ApiHarness,
  submission: Omit<SubmissionThroughApi, "token" | "user">,
): Promise<SubmissionReceipt> {
  const user = { id: await userIdOf(api, DEMO_COORDINATOR), username: DEMO_COORDINATOR };
  return postSubmission(api, { ...submission, token: await api.signIn(DEMO_COORDINATOR), user });
}

/** Submits through the submission call (see postSubmission) and answers the submission's id. */
export async function submitThroughApi(api: ApiHarness, submission: SubmissionThroughApi): Promise<number> {
  return (await postSubmission(api, submission)).id;
}

/** A demo instrument's id and its definition as served. */
export type ServedInstrument = { id: number; definition: SurveyDefinition };

/**
 * The demo coordinator signed in, ready to submit for a participant new to the demo study:
 * the kitchen sink and HAM-D 17 as served, and submit(), completed a minute ago.
 */
export type CoordinatorSubmitting = {
  coordinatorId: number;
  coordinatorToken: string;
  participantId: number;
  kitchenSink: ServedInstrument;
  hamd: ServedInstrument;
  submit: (instrument: ServedInstrument, answers: Record<string, AnswerEntry[]>) => Promise<number>;
};

export async function coordinatorSubmittingForNewParticipant(
  api: ApiHarness,
  participant: NewParticipant,
): Promise<CoordinatorSubmitting> {
  const kitchenSinkId = await instrumentIdBySlug(api, DEMO_STUDY_ID, "kitchen-sink");
  const hamdId = await instrumentIdBySlug(api, DEMO_STUDY_ID, "ham-d-17");
  const coordinatorId = await userIdOf(api, DEMO_COORDINATOR);
  const participantId = await newParticipant(api, participant);
  const coordinatorToken = await api.signIn(DEMO_COORDINATOR);
  return {
    coordinatorId,
    coordinatorToken,
    participantId,
    kitchenSink: {
      id: kitchenSinkId,
      definition: await servedDefinition(api, coordinatorToken, kitchenSinkId, "kitchen-sink"),
    },
    hamd: { id: hamdId, definition: await servedDefinition(api, coordinatorToken, hamdId, "ham-d-17") },
    submit: (instrument, answers) =>
      submitThroughApi(api, {
        token: coordinatorToken,
        user: { id: coordinatorId, username: DEMO_COORDINATOR },
        participantId,
        instrumentId: instrument.id,
        form: instrument.definition,
        answers,
        completion: new Date(Date.now() - 60_000),
      }),
  };
}

/** Answers to every select-one question of the form, the choice picked for each by its id and place. */
export function everySelectOneAnswered(
  form: SurveyDefinition,
  choiceFor: (questionId: string, index: number) => string,
): Record<string, AnswerEntry[]> {
  return Object.fromEntries(
    form.order
      .filter((id) => form.questions[id]!.type === "select_one")
      .map((id, index) => [id, [chosen(form, id, choiceFor(id, index))]]),
  );
}
