/**
 * The offline enrolment drill (site set-up issue, section 4): 20 participants enrolled on a
 * device without a connection, each with a consent (its drawn signature uploaded first, then
 * witnessed on the same tablet: MDD-301 asks consent first), an instrument with a photo, and an
 * event; then the connection comes back. Everything goes through
 * the app's real outbox: its enqueue functions and IndexedDB store (fake-indexeddb on Node), its
 * durable map of provisional ids, its drain, and its transport (fetch over HTTP to the real
 * server on a port). Every record must arrive, in order, exactly once, with no 404 and no
 * foreign-key error, on PGlite and on PostgreSQL.
 */
import "fake-indexeddb/auto";
import { constants, createPublicKey, publicEncrypt, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import {
  consentDefinitionResponse,
  type ConsentDefinitionResponse,
  type ConsentSubmissionBody,
} from "../../core/contracts/consent-schemas.ts";
import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { photoFileName, valueEntry } from "../../core/survey-engine/answer-values.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import {
  auditLog,
  consentParticipants,
  consents,
  instrumentInstances,
  instrumentSubmissions,
  instruments,
  participants,
  uploadedFiles,
  users,
} from "../../server/db/schema.ts";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { DEMO_SIGNATURE_PNG } from "../../server/seed/demo-consents.ts";

import { drainOutbox, type DrainReport } from "../../src/outbox/drain.ts";
import {
  enqueueEnrolment,
  enqueueSubmissionWithUploads,
  enqueueWrite,
  eventsWrite,
  uploadWrite,
  type NewWrite,
} from "../../src/outbox/enqueue.ts";
import { enrolmentWrite } from "../../src/outbox/enrolment-write.ts";
import type { OutboxItem } from "../../src/outbox/outbox-item.ts";
import { indexedDbOutboxStore, listItems } from "../../src/outbox/outbox-store.ts";
import { indexedDbParticipantIds } from "../../src/outbox/participant-id-store.ts";
import { sendOutboxItem, type SendOutcome } from "../../src/outbox/send-item.ts";
import type { SessionTokens } from "../../src/outbox/session-tokens.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { chosen, definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";
import { testImage } from "../support/test-images.ts";

const PARTICIPANTS = 20;
const STUDY = 101;
const SITE = 1011;
const MAIN_CONSENT = "Main Study Informed Consent";
const CAPTURED_AT = "2026-11-22T09:15:00-05:00";

describeOnEachDatabase("offline enrolment drill", (api) => {
  let baseUrl = "";
  let token = "";
  let coordinator = { id: 0, username: "coordinator@demo.test" };
  let witness = { id: 0, username: "witness@demo.test", token: "" };
  let kitchenId = 0;
  let kitchen: SurveyDefinition | undefined;
  let consentId = 0;
  let consent: ConsentDefinitionResponse | undefined;
  let signing: ConsentSubmissionBody["signing"];
  let photoBytes: Uint8Array = new Uint8Array();
  let signatureBytes: Uint8Array = new Uint8Array();

  beforeAll(async () => {
    // The real transport: fetch over HTTP, so the server is listening on a port.
    baseUrl = await api.app.listen({ port: 0, host: "127.0.0.1" });
    token = await api.signIn(coordinator.username);
    const [user] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, coordinator.username));
    coordinator = { ...coordinator, id: user!.id };
    const [witnessRow] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, witness.username));
    witness = { ...witness, id: witnessRow!.id, token: await api.signIn(witness.username) };
    const [instrument] = await api.db
      .select({ id: instruments.id })
      .from(instruments)
      .where(and(eq(instruments.studyId, STUDY), eq(instruments.slug, "kitchen-sink")));
    kitchenId = instrument!.id;
    // What the device cached while it was online: the instrument's definition, the consent's
    // (read for a participant enrolled online), the signing key.
    kitchen = parseDefinitionOrThrow(
      definitionJsonOf(
        await api.request("GET", `/control/admin/studies/${STUDY}/instruments/${kitchenId}/kitchen-sink`, {
          token,
        }),
      ),
    );
    const online = await api.request("POST", `/control/studies/${STUDY}/sites/${SITE}/participants`, {
      token,
      headers: { "idempotency-key": randomUUID() },
      body: {
        subject_id: `ONLINE-${randomUUID().slice(0, 8)}`,
        fname: "Online",
        lname: "Reference",
        date_of_birth: "1970-01-01",
        gender: null,
        client_id: randomUUID(),
      },
    });
    expect(online.statusCode).toBe(201);
    const [main] = await api.db.select().from(consents).where(eq(consents.title, MAIN_CONSENT));
    consentId = main!.id;
    const definition = await api.request(
      "GET",
      `/control/v2/clinro/consent?consent_id=${consentId}&version=${main!.version}&ptp_id=${(online.json() as { id: number }).id}`,
      { token },
    );
    expect(definition.statusCode).toBe(200);
    consent = consentDefinitionResponse.parse(definition.json());
    const key = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token })).json(),
    );
    const ciphertext = publicEncrypt(
      {
        key: createPublicKey({ key: key.jwk, format: "jwk" }),
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: "sha256",
      },
      Buffer.from(DEMO_PASSWORD, "utf8"),
    );
    signing = {
      kid: key.kid,
      password_ciphertext: ciphertext.toString("base64"),
      captured_at: CAPTURED_AT,
      time_zone: "America/New_York",
    };
    photoBytes = new Uint8Array(await testImage("jpeg"));
    signatureBytes = new Uint8Array(await readFile(DEMO_SIGNATURE_PNG));
  });

  const context = (participantId?: number) => ({
    userId: coordinator.id,
    username: coordinator.username,
    studyId: STUDY,
    siteId: SITE,
    ...(participantId === undefined ? {} : { participantId }),
  });

  /**
   * The witness's session of the main consent, signed on the same tablet: MDD-301 asks consent
   * first, and its main consent is complete only once witnessed.
   */
  function witnessWrite(participantId: number, index: number): NewWrite {
    const { definition } = consent!;
    const body: ConsentSubmissionBody = {
      consent_id: consent!.consent_id,
      consent_version: consent!.consent_version,
      records: [
        makeRecord(
          definition.questions.witness_signature!,
          [
            {
              label: "Grace Mensah",
              value: "Grace Mensah",
              question: "witness_signature",
              signature_type: "text",
              signed_date: CAPTURED_AT,
            },
          ],
          new Date("2026-11-22T14:25:00.000Z"),
        ),
      ],
      completion: "2026-11-22T14:26:00.000Z",
      browser_info: "offline enrolment drill",
      signing,
    };
    return {
      kind: "consent",
      label: `Witnessed consent ${index}`,
      request: {
        method: "POST",
        path: `/control/v2/witness/participant/${participantId}/consent`,
        headers: { version: "010" },
        body: { type: "json", value: body },
      },
    };
  }

  /** The kitchen sink answered as the instrument page would, with one photo named for `participantId`. */
  function instrumentWrites(participantId: number, index: number) {
    const sink = kitchen!;
    const photo = photoFileName(
      { studyId: STUDY, participantId, instrumentId: kitchenId },
      "photos",
      `drill-${index}`,
    );
    const answers: Record<string, AnswerEntry[]> = {
      color: [chosen(sink, "color", "red")],
      symptoms: [chosen(sink, "symptoms", "headache")],
      notes: [valueEntry(`Offline visit ${index}`)],
      weight: [valueEntry(70.5)],
      age: [valueEntry(30)],
      mood5: [chosen(sink, "mood5", "l5_4")],
      mood7: [chosen(sink, "mood7", "l7_6")],
      wake_time: [valueEntry("2026-11-22T07:15:00+01:00")],
      bed_time: [valueEntry("2026-11-22T22:45:00+01:00")],
      visit_date: [valueEntry("2026-11-20T00:00:00.000Z")],
      visit_datetime: [valueEntry("2026-11-29T13:30:00.000Z")],
      pain: [valueEntry(5)],
      vitals: [
        { ...valueEntry("120/80"), question: "blood_pressure" },
        { ...valueEntry(72), question: "heart_rate" },
        { ...valueEntry(36.6), question: "temperature" },
      ],
      sleep_matrix: [
        { ...chosen(sink, "sleep_matrix", "often"), question: "fall_asleep" },
        { ...chosen(sink, "sleep_matrix", "never"), question: "wake_night" },
      ],
      drawing: [valueEntry("data:image/png;base64,iVBORw0KGgo=")],
      photos: [valueEntry(photo)],
      daily_feeling: [chosen(sink, "daily_feeling", "good")],
      daily_energy: [valueEntry(6)],
      daily_comment: [valueEntry("Fine")],
    };
    // No delivery named: the server completes the one it made at enrolment.
    const payload = payloadFor(sink, answers, {
      user: coordinator,
      instrumentId: kitchenId,
      instanceId: randomUUID(),
    });
    const upload = uploadWrite(new Blob([Buffer.from(photoBytes)], { type: "image/jpeg" }), {
      file_name: photo,
      module_name: "clinro",
      participant_id: participantId,
    });
    const submission: NewWrite = {
      kind: "submission",
      label: `Kitchen sink ${index}`,
      instrument: { id: kitchenId },
      request: {
        method: "POST",
        path: `/control/clinro/participant/${participantId}/instruments/${kitchenId}/submission`,
        headers: { version: "010" },
        body: { type: "json", value: [payload] },
      },
    };
    return { upload, submission, photo };
  }

  /** The main consent signed as the consent page would: drawn participant signature, typed clinician's. */
  function consentWrites(participantId: number, index: number) {
    const { definition } = consent!;
    const fileName = `consent_${participantId}_participant_signature_${index}.png`;
    const at = new Date("2026-11-22T14:15:00.000Z");
    const record = (questionId: string, entries: AnswerEntry[]) =>
      makeRecord(definition.questions[questionId]!, entries, at);
    const body: ConsentSubmissionBody = {
      consent_id: consent!.consent_id,
      consent_version: consent!.consent_version,
      records: [
        record("decision", [
          { label: definition.questions.decision!.choices!.agree!.label, value: "agree", choice_id: "agree" },
        ]),
        record("participant_signature", [
          {
            label: `Drill ${index}`,
            value: fileName,
            question: "participant_signature",
            signature_type: "draw",
            signed_date: CAPTURED_AT,
          },
        ]),
        record("clinician_signature", [
          {
            label: "Carmen Ortiz",
            value: "Carmen Ortiz",
            question: "clinician_signature",
            signature_type: "text",
            signed_date: CAPTURED_AT,
          },
        ]),
      ],
      completion: "2026-11-22T14:20:00.000Z",
      browser_info: "offline enrolment drill",
      signing,
    };
    const upload = uploadWrite(new Blob([Buffer.from(signatureBytes)], { type: "image/png" }), {
      file_name: fileName,
      module_name: "consent",
      participant_id: participantId,
    });
    const submission: NewWrite = {
      kind: "consent",
      label: `Consent ${index}`,
      request: {
        method: "POST",
        path: `/control/v2/clinro/participant/${participantId}/consent`,
        headers: { version: "010" },
        body: { type: "json", value: body },
      },
    };
    return { upload, submission };
  }

  it(`${PARTICIPANTS} participants enrolled offline, each with a consent, an instrument and a photo: every record arrives once, in order, without a 404 or a foreign-key error`, async () => {
    const runId = randomUUID().slice(0, 8);
    const subjects = Array.from({ length: PARTICIPANTS }, (_, index) => `DRILL-${runId}-${index + 1}`);
    const clientIds: string[] = [];
    const queuedFor = new Map<number, string[]>();

    // Offline: every write is queued on the device, nothing is sent.
    for (const [index, subjectId] of subjects.entries()) {
      const clientId = randomUUID();
      clientIds.push(clientId);
      const fields = {
        subject_id: subjectId,
        fname: `Drill${index + 1}`,
        lname: "Offline",
        date_of_birth: "1985-06-15",
        gender: index % 2 === 0 ? ("f" as const) : null,
        email: null,
      };
      const enrolment = await enqueueEnrolment(enrolmentWrite(STUDY, SITE, fields, clientId), context());
      const provisional = enrolment.participantId!;
      expect(provisional).toBeLessThan(0);
      const signed = consentWrites(provisional, index);
      const consentItem = await enqueueSubmissionWithUploads(
        [signed.upload],
        signed.submission,
        context(provisional),
      );
      // The witness signs after the clinician's session: queued after it, and waiting for it.
      const witnessed = await enqueueWrite(
        { ...witnessWrite(provisional, index), dependsOn: [consentItem.id] },
        {
          ...context(provisional),
          userId: witness.id,
          username: witness.username,
        },
      );
      const answered = instrumentWrites(provisional, index);
      const submissionItem = await enqueueSubmissionWithUploads(
        [answered.upload],
        answered.submission,
        context(provisional),
      );
      const seen = await enqueueWrite(
        eventsWrite(
          [{ type: "seen", timestamp: new Date().toISOString(), participant: provisional, study_id: STUDY }],
          "seen",
        ),
        context(provisional),
      );
      expect(consentItem.dependsOn).toContain(enrolment.id);
      expect(submissionItem.dependsOn).toContain(enrolment.id);
      queuedFor.set(provisional, [
        enrolment.id,
        ...consentItem.dependsOn.slice(1),
        consentItem.id,
        witnessed.id,
        submissionItem.id,
        seen.id,
      ]);
    }
    const queued = await listItems();
    expect(queued).toHaveLength(PARTICIPANTS * 7);

    // The connection is back: the real drain, with the real transport, until nothing is left.
    const sent: { item: OutboxItem; outcome: SendOutcome }[] = [];
    const tokens: SessionTokens = {
      get: async (userId) => ({
        token: userId === witness.id ? witness.token : token,
        exp: Math.floor(Date.now() / 1000) + 3600,
      }),
      markRejected: async () => {},
    };
    const reports: DrainReport[] = [];
    for (let round = 0; round < 10 && (await listItems()).length > 0; round += 1) {
      reports.push(
        await drainOutbox(
          {
            store: indexedDbOutboxStore,
            tokens,
            participantIds: indexedDbParticipantIds,
            send: async (item, bearer) => {
              const outcome = await sendOutboxItem(item, bearer, (input, init) =>
                fetch(`${baseUrl}${String(input)}`, init),
              );
              sent.push({ item, outcome });
              return outcome;
            },
          },
          { ignoreBackoff: true },
        ),
      );
    }

    // Nothing left, nothing refused, nothing retried: every answer a 2xx, no 404, no 5xx.
    expect(await listItems()).toEqual([]);
    const statuses = sent.map(({ outcome }) => (outcome.kind === "answered" ? outcome.status : 0));
    expect(statuses.filter((status) => status < 200 || status >= 300)).toEqual([]);
    expect(reports.flatMap((report) => report.refused)).toEqual([]);
    // Exactly once: each item sent one time, none of them with a provisional id.
    expect(sent).toHaveLength(PARTICIPANTS * 7);
    expect(new Set(sent.map(({ item }) => item.id)).size).toBe(PARTICIPANTS * 7);
    for (const { item } of sent) {
      expect(item.request.path).not.toMatch(/\/-\d+/);
      expect(
        JSON.stringify(
          item.request.body.type === "json"
            ? item.request.body.value
            : item.request.body.type === "multipart"
              ? item.request.body.fields
              : null,
        ),
      ).not.toMatch(/_-\d+_|"-\d+"/);
    }

    // In order: for each participant the enrolment first, each upload before what names it.
    const order = new Map(sent.map(({ item }, position) => [item.id, position]));
    for (const ids of queuedFor.values()) {
      const [enrolmentId, ...rest] = ids;
      for (const id of rest) expect(order.get(id)!).toBeGreaterThan(order.get(enrolmentId!)!);
    }
    // Consent first: each rating reached the server after the consent it needs was complete.
    for (const { item, outcome } of sent) {
      if (item.kind !== "submission") continue;
      expect(outcome).toMatchObject({ status: 201 });
      const witnessed = sent.findIndex(
        (other) =>
          other.item.label.startsWith("Witnessed") && other.item.participantId === item.participantId,
      );
      expect(witnessed).toBeGreaterThanOrEqual(0);
      expect(witnessed).toBeLessThan(order.get(item.id)!);
    }
    for (const { item } of sent) {
      for (const dependency of item.dependsOn)
        expect(order.get(dependency)!).toBeLessThan(order.get(item.id)!);
    }

    // What the server holds: one participant per client id, each with one consent signed, one
    // kitchen sink completed, one photo and one signature.
    const made = await api.db.select().from(participants).where(inArray(participants.clientId, clientIds));
    expect(made.map((row) => row.subjectId).sort()).toEqual([...subjects].sort());
    const ids = made.map((row) => row.id);
    for (const [provisional] of queuedFor) {
      expect((await indexedDbParticipantIds.get(provisional))?.participantId).toBeOneOf(ids);
    }
    const perParticipant = async (rows: { participantId: number | null }[]) => {
      const counts = new Map<number, number>();
      for (const row of rows) counts.set(row.participantId!, (counts.get(row.participantId!) ?? 0) + 1);
      return ids.map((id) => counts.get(id) ?? 0);
    };
    const once = Array.from({ length: PARTICIPANTS }, () => 1);
    const submissions = await api.db
      .select({ participantId: instrumentSubmissions.participantId })
      .from(instrumentSubmissions)
      .where(
        and(
          inArray(instrumentSubmissions.participantId, ids),
          eq(instrumentSubmissions.instrumentId, kitchenId),
        ),
      );
    // The submission completed the delivery the server made at enrolment, not a second one.
    const deliveries = await api.db
      .select({ participantId: instrumentInstances.participantId })
      .from(instrumentInstances)
      .where(
        and(inArray(instrumentInstances.participantId, ids), eq(instrumentInstances.instrumentId, kitchenId)),
      );
    expect(await perParticipant(deliveries)).toEqual(once);
    expect(await perParticipant(submissions)).toEqual(once);
    const signed = await api.db
      .select({ participantId: consentParticipants.participantId, status: consentParticipants.status })
      .from(consentParticipants)
      .where(
        and(inArray(consentParticipants.participantId, ids), eq(consentParticipants.consentId, consentId)),
      );
    expect(await perParticipant(signed)).toEqual(once);
    expect(signed.every((row) => row.status === "complete")).toBe(true);
    const files = await api.db
      .select({ participantId: uploadedFiles.participantId, module: uploadedFiles.moduleName })
      .from(uploadedFiles)
      .where(inArray(uploadedFiles.participantId, ids));
    expect(await perParticipant(files.filter((file) => file.module === "clinro"))).toEqual(once);
    expect(await perParticipant(files.filter((file) => file.module === "consent"))).toEqual(once);
    // Each participant's insert is in the audit trail, once.
    const [audited] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.tableName, "participants"),
          eq(auditLog.action, "insert"),
          inArray(sql`(${auditLog.rowKey}->>'id')::int`, ids),
        ),
      );
    expect(audited!.count).toBe(PARTICIPANTS);
  });
});
