/**
 * Consent first (core/contracts/consent-gate.ts): a study that asks consent first takes no
 * instrument submission and no instrument event for a participant until each consent it
 * requires of them is complete. The refusal is a 409 naming the consent and stores nothing; an
 * optional consent holds nothing back; the participant call says what is holding them back, for
 * the app to show (and keep for offline).
 *
 * Run on each engine on a site's own study made on an empty database (a study file asking
 * consent first, with a required and an optional consent; a participant enrolled through the
 * portal's call and consented through the consent call), and on the demo (MDD-301).
 */
import { constants, createPublicKey, publicEncrypt, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { stringify } from "yaml";
import { consentDefinitionResponse } from "../../core/contracts/consent-schemas.ts";
import { CONSENT_REQUIRED_CODE } from "../../core/contracts/consent-gate.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { participantResponse } from "../../core/contracts/participant.ts";
import { ROLE_CODE } from "../../core/contracts/roles.ts";
import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import {
  consentParticipants,
  consents,
  instrumentSubmissions,
  instruments,
  participantEvents,
  participants,
} from "../../server/db/schema.ts";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import {
  cliSucceeds,
  firstAdministrator,
  invited,
  NEW_PASSWORD,
  type Person,
} from "../support/site-staff.ts";
import { definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";
import { everySelectOneAnswered, userIdOf } from "../support/submitted-study.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CAPTURED_AT = "2026-11-22T09:15:00-05:00";

/** A study asking consent first, its rater and a participant awaiting the required consent. */
type Setting = {
  studyId: number;
  rater: Person;
  raterPassword: string;
  /** A new participant awaiting the required consent (and offered the optional one). */
  newParticipant: () => Promise<number>;
  hamd: { id: number; slug: string };
  required: { id: number; title: string };
  /** Who signs as witness where the consent asks for one (the demo's main consent). */
  witness?: Person;
  /** An optional consent the participant is offered and has not signed; undefined when none. */
  optional?: { id: number; title: string };
};

async function ownStudySetting(api: ApiHarness, workDir: string): Promise<Setting> {
  const administrator = await firstAdministrator(api, "it.lead@gate.example", "Ines Lead");
  const requiredFile = path.join(root, "docs/example-study/gad118-main-consent.json");
  const main = JSON.parse(await readFile(requiredFile, "utf8")) as Record<string, unknown>;
  const optionalFile = path.join(workDir, "biobank-consent.json");
  await writeFile(
    optionalFile,
    JSON.stringify({ ...main, id: "biobank-optional", title: "Optional Biobank Consent", optional: true }),
  );
  const studyFile = path.join(workDir, "consent-first-study.yaml");
  await writeFile(
    studyFile,
    stringify({
      format: 1,
      study: { id: 601, name: "Consent First Two Sites", new_consent_enabled: true },
      sites: [
        { id: 6011, label: "North Clinic", tree_level: 4, virtual: false },
        { id: 6012, label: "South Clinic", tree_level: 4, virtual: false },
      ],
      instruments: [
        {
          slug: "ham-d-17",
          name: "Hamilton Depression Rating Scale (17 items)",
          display_name: "HAM-D 17",
          definition: path.join(root, "docs/example-study/ham-d-17.json"),
          permissions: ["16", "11"],
        },
      ],
      consents: [{ definition: requiredFile }, { definition: optionalFile }],
    }),
  );
  await cliSucceeds(api, "study", "apply", studyFile);
  const rater = await invited(api, administrator, {
    name: "Carla Coordinator",
    management_role: "enroller",
    studies: [{ study_id: 601, role: ROLE_CODE.clinicalCoordinator, site_ids: [6011, 6012] }],
  });
  // Enrolled as the portal enrols: the study's consents are offered with its instruments.
  let serial = 0;
  const newParticipant = async () => {
    serial += 1;
    const enrolled = await api.request("POST", "/control/studies/601/sites/6011/participants", {
      token: rater.token,
      body: {
        client_id: randomUUID(),
        subject_id: `CF-${serial}`,
        fname: "Ada",
        lname: `Okafor ${serial}`,
        date_of_birth: "1980-04-02",
        gender: "f",
      },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    return participantResponse.parse(enrolled.json()).id;
  };
  const consentRows = await api.db.select().from(consents).where(eq(consents.studyId, 601));
  const byTitle = (title: string) => consentRows.find((row) => row.title === title)!;
  return {
    studyId: 601,
    rater,
    raterPassword: NEW_PASSWORD,
    newParticipant,
    hamd: { id: await instrumentIdOf(api, 601, "ham-d-17"), slug: "ham-d-17" },
    required: { id: byTitle(String(main.title)).id, title: String(main.title) },
    optional: { id: byTitle("Optional Biobank Consent").id, title: "Optional Biobank Consent" },
  };
}

async function demoSetting(api: ApiHarness): Promise<Setting> {
  const username = "coordinator@demo.test";
  const rater = { id: await userIdOf(api, username), username, token: await api.signIn(username) };
  const [main] = await api.db
    .select()
    .from(consents)
    .where(eq(consents.title, "Main Study Informed Consent"));
  // New participants of MDD-301 at Boston, offered the main consent as enrolment offers it.
  const newParticipant = async () => {
    const [row] = await api.db
      .insert(participants)
      .values({
        studyId: 101,
        siteId: 1011,
        fname: "Gate",
        lname: "Demo",
        subjectId: `MDD-G${randomUUID().slice(0, 6)}`,
      })
      .returning({ id: participants.id });
    await api.db.insert(consentParticipants).values({
      consentId: main!.id,
      participantId: row!.id,
      version: main!.version,
      status: "awaiting_participant",
    });
    return row!.id;
  };
  return {
    studyId: 101,
    rater,
    raterPassword: DEMO_PASSWORD,
    witness: {
      id: await userIdOf(api, "witness@demo.test"),
      username: "witness@demo.test",
      token: await api.signIn("witness@demo.test"),
    },
    newParticipant,
    hamd: { id: await instrumentIdOf(api, 101, "ham-d-17"), slug: "ham-d-17" },
    required: { id: main!.id, title: main!.title },
  };
}

async function instrumentIdOf(api: ApiHarness, studyId: number, slug: string) {
  const [row] = await api.db
    .select({ id: instruments.id })
    .from(instruments)
    .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)));
  return row!.id;
}

function consentFirstTests(api: ApiHarness, build: (api: ApiHarness) => Promise<Setting>) {
  let setting: Setting | undefined;
  let form: SurveyDefinition | undefined;
  let participantId = 0;
  beforeAll(async () => {
    setting = await build(api);
    participantId = await setting.newParticipant();
    const { studyId, hamd, rater } = setting;
    const served = await api.request(
      "GET",
      `/control/admin/studies/${studyId}/instruments/${hamd.id}/${hamd.slug}`,
      {
        token: rater.token,
      },
    );
    expect(served.statusCode, served.body).toBe(200);
    form = parseDefinitionOrThrow(definitionJsonOf(served));
  });
  const ready = () => ({ ...setting!, form: form!, participantId });

  const submit = (participantId = ready().participantId) => {
    const { rater, hamd, form } = ready();
    const payload = payloadFor(
      form,
      everySelectOneAnswered(form, () => "c1"),
      {
        user: { id: rater.id, username: rater.username },
        instrumentId: hamd.id,
        instanceId: randomUUID(),
      },
    );
    return api.request(
      "POST",
      `/control/clinro/participant/${participantId}/instruments/${hamd.id}/submission`,
      { token: rater.token, body: [payload], headers: { version: "010", "idempotency-key": randomUUID() } },
    );
  };
  const postEvents = (events: object[]) =>
    api.request("POST", "/control/participants/me/events?platform=clinro", {
      token: ready().rater.token,
      body: events,
      headers: { "idempotency-key": randomUUID() },
    });
  const seenEvent = () => {
    const { studyId, participantId, hamd } = ready();
    return {
      type: "seen",
      timestamp: new Date().toISOString(),
      info: { instrument_id: hamd.id, study_id: studyId },
      study_id: studyId,
      participant: participantId,
    };
  };
  const stored = async () => {
    const { participantId } = ready();
    const [submissions] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.participantId, participantId));
    const [events] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(participantEvents)
      .where(eq(participantEvents.participantId, participantId));
    return { submissions: submissions!.count, events: events!.count };
  };
  const holdingBack = async (participantId = ready().participantId) => {
    const { studyId, rater } = ready();
    const [row] = await api.db
      .select({ siteId: participants.siteId })
      .from(participants)
      .where(eq(participants.id, participantId));
    const response = await api.request(
      "GET",
      `/control/studies/${studyId}/sites/${row!.siteId}/participants/${participantId}`,
      { token: rater.token },
    );
    expect(response.statusCode, response.body).toBe(200);
    return participantResponse.parse(response.json()).consents_holding_back;
  };

  /** The required consent signed through the consent call: agreed, participant and clinician. */
  const consentThroughTheCall = async (
    choice: "agree" | "decline",
    participantId = ready().participantId,
  ) => {
    const { required, rater, raterPassword } = ready();
    const [offer] = await api.db
      .select({ version: consentParticipants.version })
      .from(consentParticipants)
      .where(
        and(
          eq(consentParticipants.consentId, required.id),
          eq(consentParticipants.participantId, participantId),
        ),
      );
    const served = await api.request(
      "GET",
      `/control/v2/clinro/consent?consent_id=${required.id}&version=${offer!.version}&ptp_id=${participantId}`,
      { token: rater.token },
    );
    expect(served.statusCode, served.body).toBe(200);
    const current = consentDefinitionResponse.parse(served.json());
    const definition = current.definition;
    const at = new Date("2026-11-22T14:15:00.000Z");
    const record = (questionId: string, entries: AnswerEntry[]): AnswerRecord =>
      makeRecord(definition.questions[questionId]!, entries, at);
    const typed = (questionId: string, name: string) =>
      record(questionId, [
        { label: name, value: name, question: questionId, signature_type: "text", signed_date: CAPTURED_AT },
      ]);
    const decision = definition.order.find(
      (id) => definition.questions[id]!.attributes.consent_decision === true,
    )!;
    const choiceId = definition.questions[decision]!.choices_order!.find((id) =>
      choice === "decline"
        ? definition.questions[decision]!.choices![id]!.declines === true
        : definition.questions[decision]!.choices![id]!.declines !== true,
    )!;
    const signatures = definition.order.filter(
      (id) => definition.questions[id]!.type === "consent_signature",
    );
    const bySigner = (role: string) =>
      signatures.find((id) => definition.questions[id]!.attributes.signer_role === role)!;
    const records = [
      record(decision, [
        {
          label: definition.questions[decision]!.choices![choiceId]!.label,
          value: choiceId,
          choice_id: choiceId,
        },
      ]),
      ...(choice === "agree" ? [typed(bySigner("participant"), "Ada Okafor")] : []),
      typed(bySigner("clinro"), "Carla Coordinator"),
    ];
    const signed = await signSession(participantId, rater, raterPassword, "clinro", current, records);
    expect(signed.statusCode, signed.body).toBe(200);
    const witnessSignature = signatures.find(
      (id) => definition.questions[id]!.attributes.signer_role === "witness",
    );
    const { witness } = ready();
    if (choice === "agree" && witnessSignature && witness) {
      const witnessed = await signSession(participantId, witness, raterPassword, "witness", current, [
        typed(witnessSignature, "Grace Mensah"),
      ]);
      expect(witnessed.statusCode, witnessed.body).toBe(200);
    }
  };

  /** One signing session through the consent call, its staff signature proven by the password. */
  const signSession = async (
    participantId: number,
    signer: Person,
    password: string,
    endpoint: "clinro" | "witness",
    current: { consent_id: number; consent_version: number },
    records: AnswerRecord[],
  ) => {
    const key = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token: signer.token })).json(),
    );
    const ciphertext = publicEncrypt(
      {
        key: createPublicKey({ key: key.jwk, format: "jwk" }),
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: "sha256",
      },
      Buffer.from(password, "utf8"),
    );
    return api.request("POST", `/control/v2/${endpoint}/participant/${participantId}/consent`, {
      token: signer.token,
      body: {
        consent_id: current.consent_id,
        consent_version: current.consent_version,
        records,
        completion: "2026-11-22T14:20:00.000Z",
        browser_info: "vitest",
        signing: {
          kid: key.kid,
          password_ciphertext: ciphertext.toString("base64"),
          captured_at: CAPTURED_AT,
          time_zone: "America/New_York",
        },
      },
      headers: { version: "010", "idempotency-key": randomUUID() },
    });
  };

  it("refuses a rating and its events before the required consent, naming it, and stores nothing", async () => {
    const { required, optional } = ready();
    expect(await holdingBack()).toEqual([
      expect.objectContaining({
        consent_id: required.id,
        title: required.title,
        status: "awaiting_participant",
      }),
    ]);
    // The optional consent is offered too, unsigned, and holds nothing back.
    if (optional) {
      const [offer] = await api.db
        .select()
        .from(consentParticipants)
        .where(
          and(
            eq(consentParticipants.consentId, optional.id),
            eq(consentParticipants.participantId, ready().participantId),
          ),
        );
      expect(offer?.status).toBe("awaiting_participant");
    }
    const before = await stored();
    const refused = await submit();
    expect(refused.statusCode, refused.body).toBe(409);
    const body = errorBody.parse(refused.json());
    expect(body.code).toBe(CONSENT_REQUIRED_CODE);
    expect(body.message).toContain(required.title);
    expect(body.message).toContain("awaiting participant");
    const event = await postEvents([seenEvent()]);
    expect(event.statusCode, event.body).toBe(409);
    expect(errorBody.parse(event.json()).code).toBe(CONSENT_REQUIRED_CODE);
    expect(await stored()).toEqual(before);
  });

  it("keeps refusing a participant who declined the required consent, saying so", async () => {
    const declining = await ready().newParticipant();
    await consentThroughTheCall("decline", declining);
    expect((await holdingBack(declining))?.map((consent) => consent.status)).toEqual(["declined"]);
    const refused = await submit(declining);
    expect(refused.statusCode).toBe(409);
    expect(errorBody.parse(refused.json()).message).toContain("was declined");
  });

  it("takes the rating and its events once the required consent is complete, optional consents unsigned", async () => {
    await consentThroughTheCall("agree");
    expect(await holdingBack()).toEqual([]);
    const before = await stored();
    expect((await postEvents([seenEvent()])).statusCode).toBe(200);
    const taken = await submit();
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await stored()).toEqual({ submissions: before.submissions + 1, events: before.events + 1 });
  });
}

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-consent-first-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describeOnEachDatabase(
  "consent first on a site's own study made on an empty database",
  (api) => consentFirstTests(api, (harness) => ownStudySetting(harness, workDir)),
  { seed: "none" },
);

describeOnEachDatabase("consent first on the demo (MDD-301)", (api) => consentFirstTests(api, demoSetting));
