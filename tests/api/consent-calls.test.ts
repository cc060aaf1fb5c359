import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import { constants, createPublicKey, publicEncrypt, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDocumentProxy, extractText } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import {
  consentDefinitionResponse,
  consentParticipantsResponse,
  consentSubmissionResponse,
  NAME_ORDER,
  participantsOf,
  type ConsentDefinitionResponse,
  type ConsentSubmissionBody,
} from "../../core/contracts/consent-schemas.ts";
import { CONSENT_PARTICIPANT_STATUSES } from "../../core/contracts/consents.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { submissionRejected } from "../../core/contracts/instrument-schemas.ts";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { importConsent } from "../../server/consents/consent-definitions.ts";
import {
  auditLog,
  consentParticipants,
  consentSignatures,
  consentSignings,
  consents,
  participants,
  sitePermissions,
  sites,
  users,
} from "../../server/db/schema.ts";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { demoConsentJson, DEMO_SIGNATURE_PNG } from "../../server/seed/demo-consents.ts";
import { formatUtc } from "../../server/pdf/consent-pdf.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { mailsTo } from "../support/mail-drop.ts";

const MAIN = "Main Study Informed Consent";
const CAPTURED_AT = "2026-11-22T09:15:00-05:00";

async function pdfText(bytes: Buffer) {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(document, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

async function multipart(
  fields: Record<string, string>,
  file: { bytes: Uint8Array; type: string; name: string },
) {
  const form = new FormData();
  form.set("upload_file", new Blob([Buffer.from(file.bytes)], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get("content-type")!,
  };
}

describeOnEachDatabase("the consent calls", (api) => {
  let coordinator = "";
  let witness = "";
  let outsider = "";
  let mainId = 0;
  let serial = 0;

  beforeAll(async () => {
    coordinator = await api.signIn("coordinator@demo.test");
    witness = await api.signIn("witness@demo.test");
    const other = await api.createUser({ studies: { 102: "11" } });
    outsider = await api.signIn(other.username);
    const [main] = await api.db.select().from(consents).where(eq(consents.title, MAIN));
    mainId = main!.id;
  });

  /** A new participant of study 101, offered the main consent (version 2), nothing signed. */
  async function newParticipant(
    options: { siteId?: number; email?: string | null; consentId?: number } = {},
  ) {
    serial += 1;
    const [row] = await api.db
      .insert(participants)
      .values({
        studyId: 101,
        siteId: options.siteId ?? 1011,
        fname: "Lucía",
        lname: `Pérez ${serial}`,
        subjectId: `MDD-T${serial}`,
        email: options.email === undefined ? `lucia${serial}@example.test` : options.email,
      })
      .returning({ id: participants.id });
    const consentId = options.consentId ?? mainId;
    const [consent] = await api.db.select().from(consents).where(eq(consents.id, consentId));
    await api.db.insert(consentParticipants).values({
      consentId,
      participantId: row!.id,
      version: consent!.version,
      status: "awaiting_participant",
    });
    return row!.id;
  }

  const definitionUrl = (participantId: number, version = 2, consentId = mainId) =>
    `/control/v2/clinro/consent?consent_id=${consentId}&version=${version}&ptp_id=${participantId}`;

  async function getDefinition(participantId: number, token = coordinator) {
    const response = await api.request("GET", definitionUrl(participantId), { token });
    expect(response.statusCode).toBe(200);
    return consentDefinitionResponse.parse(response.json());
  }

  async function encrypted(password: string) {
    const key = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token: coordinator })).json(),
    );
    const publicKey = createPublicKey({ key: key.jwk, format: "jwk" });
    const ciphertext = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(password, "utf8"),
    );
    return { kid: key.kid, password_ciphertext: ciphertext.toString("base64") };
  }

  function record(definition: SurveyDefinition, questionId: string, entries: AnswerEntry[]): AnswerRecord {
    return makeRecord(definition.questions[questionId]!, entries, new Date("2026-11-22T14:15:00.000Z"));
  }
  const decision = (definition: SurveyDefinition, choice: "agree" | "decline") =>
    record(definition, "decision", [
      { label: definition.questions.decision!.choices![choice]!.label, value: choice, choice_id: choice },
    ]);
  const typed = (definition: SurveyDefinition, questionId: string, name: string) =>
    record(definition, questionId, [
      { label: name, value: name, question: questionId, signature_type: "text", signed_date: CAPTURED_AT },
    ]);

  async function uploadSignature(participantId: number) {
    const fileName = `consent_${participantId}_participant_signature_${Date.now()}.png`;
    const { body, contentType } = await multipart(
      {
        file_name: fileName,
        platform: "clinro",
        module_name: "consent",
        participant_id: String(participantId),
      },
      { bytes: await readFile(DEMO_SIGNATURE_PNG), type: "image/png", name: fileName },
    );
    const response = await api.request("POST", "/control/file/upload", {
      token: coordinator,
      body,
      headers: { "content-type": contentType, "idempotency-key": randomUUID() },
    });
    expect(response.statusCode).toBe(200);
    return fileName;
  }

  function post(
    participantId: number,
    body: unknown,
    {
      token = coordinator,
      endpoint = "clinro",
      key = randomUUID(),
    }: { token?: string; endpoint?: string; key?: string } = {},
  ) {
    return api.request("POST", `/control/v2/${endpoint}/participant/${participantId}/consent`, {
      token,
      body: body as object,
      headers: { version: "010", "idempotency-key": key },
    });
  }

  async function body(
    definition: ConsentDefinitionResponse,
    records: AnswerRecord[],
    password?: string,
  ): Promise<ConsentSubmissionBody> {
    return {
      consent_id: definition.consent_id,
      consent_version: definition.consent_version,
      records,
      completion: "2026-11-22T14:20:00.000Z",
      browser_info: "vitest",
      ...(password === undefined
        ? {}
        : {
            signing: {
              ...(await encrypted(password)),
              captured_at: CAPTURED_AT,
              time_zone: "America/New_York",
            },
          }),
    };
  }

  /** The participant and clinician session of the main consent, drawn participant signature. */
  async function clinicianSession(participantId: number, { clinicianSigns = true } = {}) {
    const current = await getDefinition(participantId);
    const definition = current.definition;
    const fileName = await uploadSignature(participantId);
    const records = [
      decision(definition, "agree"),
      record(definition, "participant_signature", [
        {
          label: "Lucía Pérez",
          value: fileName,
          question: "participant_signature",
          signature_type: "draw",
          signed_date: CAPTURED_AT,
        },
      ]),
      ...(clinicianSigns ? [typed(definition, "clinician_signature", "Carmen Ortiz")] : []),
    ];
    return post(participantId, await body(current, records, clinicianSigns ? DEMO_PASSWORD : undefined));
  }

  async function witnessSession(participantId: number, password = DEMO_PASSWORD) {
    const current = await getDefinition(participantId, witness);
    const records = [typed(current.definition, "witness_signature", "Grace Mensah")];
    return post(participantId, await body(current, records, password), {
      token: witness,
      endpoint: "witness",
    });
  }

  const statusOf = async (participantId: number, consentId = mainId) => {
    const [row] = await api.db
      .select({ status: consentParticipants.status, version: consentParticipants.version })
      .from(consentParticipants)
      .where(
        and(
          eq(consentParticipants.consentId, consentId),
          eq(consentParticipants.participantId, participantId),
        ),
      );
    return row;
  };
  const signingsOf = async (participantId: number) => {
    const [row] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(consentSignings)
      .where(eq(consentSignings.participantId, participantId));
    return row!.count;
  };

  it("answers the signing key, the same RSA-OAEP-256 key every time", async () => {
    const first = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token: coordinator })).json(),
    );
    const second = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token: witness })).json(),
    );
    expect(first.jwk.alg).toBe("RSA-OAEP-256");
    expect(first.jwk.kty).toBe("RSA");
    expect(second).toEqual(first);
    expect(JSON.stringify(first)).not.toMatch(/"d"|"p"|"q"/);
    expect((await api.request("GET", "/control/v2/signing-key")).statusCode).toBe(401);
  });

  it("answers the definition of a new participant with no records nor signatures", async () => {
    const participantId = await newParticipant();
    const answer = await getDefinition(participantId);
    expect(answer).toMatchObject({
      consent_id: mainId,
      consent_version: 2,
      title: MAIN,
      study_id: 101,
      status: "awaiting_participant",
      participant: { id: participantId, firstname: "Lucía" },
      records: [],
      signatures: [],
    });
    expect(answer.definition.type).toBe("CONSENT");
    expect(answer.definition.questions.witness_signature?.attributes.signer_role).toBe("witness");
  });

  it("refuses the definition call: 400 bad query, 404 unknown consent or version, 403 outside or not offered", async () => {
    const participantId = await newParticipant();
    const bad = await api.request(
      "GET",
      `/control/v2/clinro/consent?consent_id=abc&version=2&ptp_id=${participantId}`,
      {
        token: coordinator,
      },
    );
    expect(bad.statusCode).toBe(400);
    expect(errorBody.parse(bad.json()).issues?.map((issue) => issue.path)).toEqual(["consent_id"]);
    expect(
      (await api.request("GET", definitionUrl(participantId, 2, 999999), { token: coordinator })).statusCode,
    ).toBe(404);
    expect(
      (await api.request("GET", definitionUrl(participantId, 9), { token: coordinator })).statusCode,
    ).toBe(404);
    // Version 1 is published, but the participant is on version 2.
    expect(
      (await api.request("GET", definitionUrl(participantId, 1), { token: coordinator })).statusCode,
    ).toBe(403);
    expect((await api.request("GET", definitionUrl(participantId), { token: outsider })).statusCode).toBe(
      403,
    );
    const [otherStudy] = await api.db
      .select({ id: participants.id })
      .from(participants)
      .where(eq(participants.studyId, 102))
      .limit(1);
    expect((await api.request("GET", definitionUrl(otherStudy!.id), { token: coordinator })).statusCode).toBe(
      403,
    );
  });

  it("moves the participant through awaiting_witness to complete, with manifestations, both times and verified hashes", async () => {
    const participantId = await newParticipant();
    const clinician = await clinicianSession(participantId);
    expect(clinician.statusCode).toBe(200);
    const afterClinician = consentSubmissionResponse.parse(clinician.json());
    expect(afterClinician.status).toBe("awaiting_witness");
    expect(
      afterClinician.signatures.map((signature) => [
        signature.role,
        signature.meaning,
        signature.printed_name,
      ]),
    ).toEqual([
      ["participant", "Participant consent", "Lucía Pérez"],
      ["clinro", "Consent obtained by", "Carmen Ortiz"],
    ]);
    const clinro = afterClinician.signatures[1]!;
    expect(clinro).toMatchObject({
      captured_at: CAPTURED_AT,
      time_zone: "America/New_York",
      verified: true,
      signature_type: "text",
    });
    expect(Date.parse(clinro.received_at)).toBeGreaterThan(Date.parse(CAPTURED_AT));

    // The witness sees the earlier answers to pre-fill, and signs through its own endpoint.
    const before = await getDefinition(participantId, witness);
    expect(before.status).toBe("awaiting_witness");
    expect(before.records.map((answer) => answer.id).sort()).toEqual([
      "clinician_signature",
      "decision",
      "participant_signature",
    ]);
    const witnessed = await witnessSession(participantId);
    expect(witnessed.statusCode).toBe(200);
    const done = consentSubmissionResponse.parse(witnessed.json());
    expect(done.status).toBe("complete");
    expect(
      done.signatures.map((signature) => [signature.role, signature.meaning, signature.verified]),
    ).toEqual([
      ["participant", "Participant consent", true],
      ["clinro", "Consent obtained by", true],
      ["witness", "Witnessed by", true],
    ]);
    expect(await statusOf(participantId)).toEqual({ status: "complete", version: 2 });
    const stored = await api.db
      .select()
      .from(consentSignatures)
      .where(eq(consentSignatures.participantId, participantId));
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.hash))).toBe(true);

    // A finished consent takes no more sessions.
    expect((await witnessSession(participantId)).statusCode).toBe(409);

    // The download: the completed PDF, an attachment, verified.
    const download = await api.request(
      "GET",
      `/control/v2/studies/101/participants/${participantId}/download?consent_id=${mainId}`,
      {
        token: coordinator,
      },
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="/);
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["cache-control"]).toBe("no-store");
    expect(download.headers["x-signatures-verified"]).toBe("true");
    const text = await pdfText(download.rawPayload);
    for (const expected of [
      "Lucía Pérez",
      "Carmen Ortiz",
      "Grace Mensah",
      "Consent obtained by",
      "Witnessed by",
      "Participant consent",
      // Both times of each signature: the device's, with its offset and zone, and the server's.
      "22-Nov-2026 09:15:00 UTC-05:00 (America/New_York)",
      formatUtc(clinro.received_at),
      formatUtc(done.signatures[2]!.received_at),
    ]) {
      expect(text).toContain(expected);
    }

    // Tampering with a stored record: the download says the signatures no longer verify.
    const [firstSigning] = await api.db
      .select()
      .from(consentSignings)
      .where(eq(consentSignings.participantId, participantId))
      .orderBy(asc(consentSignings.id))
      .limit(1);
    const changed = (firstSigning!.records as AnswerRecord[]).map((answer) =>
      answer.id === "decision" ? { ...answer, time_answered: "2026-11-22T14:16:00.000Z" } : answer,
    );
    await api.db
      .update(consentSignings)
      .set({ records: changed })
      .where(eq(consentSignings.id, firstSigning!.id));
    const tampered = await api.request(
      "GET",
      `/control/v2/studies/101/participants/${participantId}/download?consent_id=${mainId}`,
      {
        token: coordinator,
      },
    );
    expect(tampered.headers["x-signatures-verified"]).toBe("false");
    expect((await getDefinition(participantId)).signatures.every((signature) => !signature.verified)).toBe(
      true,
    );
  });

  it("audits the stored signing and signatures as written by the signing user", async () => {
    const participantId = await newParticipant();
    expect((await clinicianSession(participantId)).statusCode).toBe(200);
    const [coordinatorUser] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "coordinator@demo.test"));
    const rows = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "insert"),
          sql`${auditLog.tableName} in ('consent_signings', 'consent_signatures')`,
          sql`${auditLog.newValues} ->> 'participant_id' = ${String(participantId)}`,
        ),
      );
    expect(rows.map((row) => row.tableName).sort()).toEqual([
      "consent_signatures",
      "consent_signatures",
      "consent_signings",
    ]);
    expect(rows.every((row) => row.actorUserId === coordinatorUser!.id)).toBe(true);
  });

  it("fails verification of a signature moved onto another participant's signing", async () => {
    const first = await newParticipant();
    const second = await newParticipant();
    expect((await clinicianSession(first)).statusCode).toBe(200);
    expect((await clinicianSession(second)).statusCode).toBe(200);
    const [signatureOfFirst] = await api.db
      .select()
      .from(consentSignatures)
      .where(and(eq(consentSignatures.participantId, first), eq(consentSignatures.role, "clinro")));
    const [signingOfSecond] = await api.db
      .select()
      .from(consentSignings)
      .where(eq(consentSignings.participantId, second));
    await api.db
      .update(consentSignatures)
      .set({ participantId: second, signingId: signingOfSecond!.id })
      .where(eq(consentSignatures.id, signatureOfFirst!.id));
    const seen = await getDefinition(second);
    expect(seen.signatures.some((signature) => !signature.verified)).toBe(true);
  });

  it("leaves the participant awaiting_clinro when the clinician has not signed, then awaiting_witness", async () => {
    const participantId = await newParticipant({ siteId: 1012 });
    const first = await clinicianSession(participantId, { clinicianSigns: false });
    expect(first.statusCode).toBe(200);
    expect(consentSubmissionResponse.parse(first.json()).status).toBe("awaiting_clinro");
    const current = await getDefinition(participantId);
    const second = await post(
      participantId,
      await body(current, [typed(current.definition, "clinician_signature", "Carmen Ortiz")], DEMO_PASSWORD),
    );
    expect(second.statusCode).toBe(200);
    expect(consentSubmissionResponse.parse(second.json()).status).toBe("awaiting_witness");
  });

  describe("refuses a session of the awaited signer without that signer's signature (422), changing nothing", () => {
    async function refusedUnchanged(
      participantId: number,
      response: Awaited<ReturnType<typeof post>>,
      question: string,
      status: string,
      signings: number,
    ) {
      expect(response.statusCode).toBe(422);
      const refused = submissionRejected.parse(response.json());
      expect(refused.problems.map((problem) => problem.question)).toContain(question);
      expect(refused.message).toContain(question);
      expect(await statusOf(participantId)).toEqual({ status, version: 2 });
      expect(await signingsOf(participantId)).toBe(signings);
    }

    it("the clinician, when the consent awaits the clinician", async () => {
      const participantId = await newParticipant({ siteId: 1012 });
      expect((await clinicianSession(participantId, { clinicianSigns: false })).statusCode).toBe(200);
      const current = await getDefinition(participantId);
      const unsigned = [
        record(current.definition, "clinician_statement", []),
        record(current.definition, "clinician_signature", []),
      ];
      const response = await post(participantId, await body(current, unsigned));
      await refusedUnchanged(participantId, response, "clinician_signature", "awaiting_clinro", 1);
    });

    it("the witness, when the consent awaits the witness", async () => {
      const participantId = await newParticipant({ siteId: 1012 });
      expect((await clinicianSession(participantId)).statusCode).toBe(200);
      const current = await getDefinition(participantId, witness);
      const unsigned = [
        record(current.definition, "witness_statement", []),
        record(current.definition, "witness_signature", []),
      ];
      const response = await post(participantId, await body(current, unsigned), {
        token: witness,
        endpoint: "witness",
      });
      await refusedUnchanged(participantId, response, "witness_signature", "awaiting_witness", 1);
    });

    it("the participant, when the consent awaits the participant", async () => {
      const participantId = await newParticipant({ siteId: 1012 });
      const current = await getDefinition(participantId);
      const unsigned = [
        decision(current.definition, "agree"),
        record(current.definition, "participant_signature", []),
      ];
      const response = await post(participantId, await body(current, unsigned));
      await refusedUnchanged(participantId, response, "participant_signature", "awaiting_participant", 0);
    });
  });

  it("declines when the decision declines", async () => {
    const participantId = await newParticipant();
    const current = await getDefinition(participantId);
    const response = await post(
      participantId,
      await body(current, [decision(current.definition, "decline")]),
    );
    expect(response.statusCode).toBe(200);
    expect(consentSubmissionResponse.parse(response.json())).toEqual({ status: "declined", signatures: [] });
    expect(await statusOf(participantId)).toEqual({ status: "declined", version: 2 });
  });

  it("keeps the witness endpoint to witnesses and the clinician endpoint to the others (403)", async () => {
    const participantId = await newParticipant();
    const current = await getDefinition(participantId);
    const asClinician = await post(
      participantId,
      await body(current, [decision(current.definition, "agree")]),
      {
        endpoint: "witness",
      },
    );
    expect(asClinician.statusCode).toBe(403);
    expect(errorBody.parse(asClinician.json()).code).toBe("witness_only");
    const asWitness = await post(
      participantId,
      await body(current, [decision(current.definition, "agree")]),
      {
        token: witness,
      },
    );
    expect(asWitness.statusCode).toBe(403);
    expect(errorBody.parse(asWitness.json()).code).toBe("witness_not_allowed");
    expect(await signingsOf(participantId)).toBe(0);
  });

  it("refuses a clinician signature through the witness endpoint and a witness one through the clinician endpoint (422)", async () => {
    const participantId = await newParticipant();
    expect((await clinicianSession(participantId)).statusCode).toBe(200);
    const current = await getDefinition(participantId, witness);
    const fresh = await newParticipant();
    const freshDefinition = await getDefinition(fresh);
    const witnessByClinician = await post(
      fresh,
      await body(
        freshDefinition,
        [
          decision(freshDefinition.definition, "agree"),
          typed(freshDefinition.definition, "witness_signature", "X"),
        ],
        DEMO_PASSWORD,
      ),
    );
    expect(witnessByClinician.statusCode).toBe(422);
    expect(witnessByClinician.json().problems[0].question).toBe("witness_signature");
    const other = await newParticipant();
    expect((await clinicianSession(other, { clinicianSigns: false })).statusCode).toBe(200);
    const otherDefinition = await getDefinition(other, witness);
    const clinroByWitness = await post(
      other,
      await body(
        otherDefinition,
        [typed(otherDefinition.definition, "clinician_signature", "Grace")],
        DEMO_PASSWORD,
      ),
      { token: witness, endpoint: "witness" },
    );
    expect(clinroByWitness.statusCode).toBe(422);
    expect(clinroByWitness.json().problems[0].question).toBe("clinician_signature");
    expect(current.status).toBe("awaiting_witness");
  });

  it("refuses a wrong signing password with 422 signing_password_invalid, stores nothing and audits it", async () => {
    const participantId = await newParticipant();
    expect((await clinicianSession(participantId)).statusCode).toBe(200);
    const signingsBefore = await signingsOf(participantId);
    const refused = await witnessSession(participantId, "not-the-password");
    expect(refused.statusCode).toBe(422);
    expect(errorBody.parse(refused.json()).code).toBe("signing_password_invalid");
    expect(await signingsOf(participantId)).toBe(signingsBefore);
    expect(await statusOf(participantId)).toEqual({ status: "awaiting_witness", version: 2 });
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "signature_refused"),
          sql`${auditLog.rowKey} ->> 'participant_id' = ${String(participantId)}`,
        ),
      );
    expect(audits).toHaveLength(1);
    const [witnessUser] = await api.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, "witness@demo.test"));
    expect(audits[0]!.actorUserId).toBe(witnessUser!.id);
    expect(JSON.stringify(audits[0])).not.toContain("not-the-password");
  });

  it("needs the signing proof when the records hold a clinician signature (400)", async () => {
    const participantId = await newParticipant();
    const current = await getDefinition(participantId);
    const fileName = await uploadSignature(participantId);
    const records = [
      decision(current.definition, "agree"),
      record(current.definition, "participant_signature", [
        {
          label: "Lucía Pérez",
          value: fileName,
          question: "participant_signature",
          signature_type: "draw",
          signed_date: CAPTURED_AT,
        },
      ]),
      typed(current.definition, "clinician_signature", "Carmen Ortiz"),
    ];
    const response = await post(participantId, await body(current, records));
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).issues?.map((issue) => issue.path)).toEqual(["signing"]);
    expect(await signingsOf(participantId)).toBe(0);
  });

  it("stores a session once per Idempotency-Key", async () => {
    const participantId = await newParticipant();
    const current = await getDefinition(participantId);
    const request = await body(current, [decision(current.definition, "decline")]);
    const key = randomUUID();
    const first = await post(participantId, request, { key });
    const second = await post(participantId, request, { key });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
    expect(await signingsOf(participantId)).toBe(1);
  });

  it("validates the records with the engine, and refuses bad input with 400 and unknown ids with 403/404", async () => {
    const participantId = await newParticipant();
    const current = await getDefinition(participantId);
    const badChoice = record(current.definition, "decision", [
      { label: "maybe", value: "maybe", choice_id: "maybe" },
    ]);
    const refused = await post(participantId, await body(current, [badChoice]));
    expect(refused.statusCode).toBe(422);
    expect(
      refused.json().problems.some((problem: { question?: string }) => problem.question === "decision"),
    ).toBe(true);
    const unknownQuestion = await post(
      participantId,
      await body(current, [{ ...decision(current.definition, "agree"), id: "ghost" }]),
    );
    expect(unknownQuestion.statusCode).toBe(422);
    const unsignedImage = await post(
      participantId,
      await body(current, [
        decision(current.definition, "agree"),
        record(current.definition, "participant_signature", [
          {
            label: "Lucía",
            value: "never-uploaded.png",
            question: "participant_signature",
            signature_type: "draw",
            signed_date: CAPTURED_AT,
          },
        ]),
      ]),
    );
    expect(unsignedImage.statusCode).toBe(422);
    expect(errorBody.parse(unsignedImage.json()).code).toBe("attachment_missing");
    const noRecords = await post(participantId, { ...(await body(current, [])), records: undefined });
    expect(noRecords.statusCode).toBe(400);
    expect(
      (
        await post(participantId, await body(current, [decision(current.definition, "agree")]), {
          token: outsider,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await post(participantId, {
          ...(await body(current, [decision(current.definition, "agree")])),
          consent_id: 999999,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await post(participantId, {
          ...(await body(current, [decision(current.definition, "agree")])),
          consent_version: 1,
        })
      ).statusCode,
    ).toBe(409);
    expect(await signingsOf(participantId)).toBe(0);
  });

  it("lists the participants of one consent and site grouped by status, sorted, and refuses other sites", async () => {
    const url = (site: number | string, consentId = mainId) =>
      `/control/v2/clinro/me/consents/${consentId}?site_id=${site}`;
    const seen = new Set<string>();
    for (const site of [1011, 1012]) {
      const response = await api.request("GET", url(site), { token: coordinator });
      expect(response.statusCode).toBe(200);
      const answer = consentParticipantsResponse.parse(response.json());
      expect(answer).toMatchObject({ consent_id: mainId, title: MAIN, version: 2 });
      // One group per status present, in the statuses' order, each holding only its status, by name.
      const groupStatuses = answer.groups.map((group) => group.status);
      expect(groupStatuses).toEqual(
        CONSENT_PARTICIPANT_STATUSES.filter((status) => groupStatuses.includes(status)),
      );
      for (const group of answer.groups) {
        expect(group.participants.length).toBeGreaterThan(0);
        expect(new Set(group.participants.map((p) => p.consent_participant_status))).toEqual(
          new Set([group.status]),
        );
        const sorted = [...group.participants].sort(
          (a, b) =>
            NAME_ORDER.compare(a.lastname, b.lastname) ||
            NAME_ORDER.compare(a.firstname, b.firstname) ||
            a.id - b.id,
        );
        expect(group.participants.map((participant) => participant.id)).toEqual(
          sorted.map((participant) => participant.id),
        );
      }
      const everyone = participantsOf(answer);
      expect(everyone.length).toBeGreaterThan(10);
      const statuses = new Set(everyone.map((participant) => participant.consent_participant_status));
      // The demo has every status in both sites.
      expect([...statuses].sort()).toEqual([
        "awaiting_clinro",
        "awaiting_participant",
        "awaiting_witness",
        "complete",
        "declined",
      ]);
      for (const status of statuses) seen.add(status);
    }
    expect(seen.size).toBe(5);
    expect((await api.request("GET", url(1021), { token: coordinator })).statusCode).toBe(403);
    expect((await api.request("GET", url("x"), { token: coordinator })).statusCode).toBe(400);
    expect((await api.request("GET", url(1011, 999999), { token: coordinator })).statusCode).toBe(404);
    expect((await api.request("GET", url(1011), { token: outsider })).statusCode).toBe(403);
  });

  it("answers a permitted site where nobody is offered the consent with no groups, and refuses a permitted site of another study", async () => {
    // A site of the consent's study with no participants yet, and one of another study, both
    // in the user's permissions: the read finds nobody at either, and only the checks tell them apart.
    const user = await api.createUser({ studies: { 101: "11", 103: "11" } });
    await api.db.insert(sites).values({ id: 1019, studyId: 101, label: "Empty site", treeLevel: 1 });
    await api.db.insert(sitePermissions).values({ userId: user.id, siteId: 1019 });
    const token = await api.signIn(user.username);
    const empty = await api.request("GET", `/control/v2/clinro/me/consents/${mainId}?site_id=1019`, {
      token,
    });
    expect(empty.statusCode).toBe(200);
    expect(consentParticipantsResponse.parse(empty.json())).toMatchObject({ consent_id: mainId, groups: [] });
    const otherStudy = await api.request("GET", `/control/v2/clinro/me/consents/${mainId}?site_id=1031`, {
      token,
    });
    expect(otherStudy.statusCode).toBe(403);
    expect(otherStudy.json()).toMatchObject({ code: "site_forbidden" });
    const filled = await api.request("GET", `/control/v2/clinro/me/consents/${mainId}?site_id=1011`, {
      token,
    });
    expect(participantsOf(consentParticipantsResponse.parse(filled.json())).length).toBeGreaterThan(10);
  });

  it("lists the participants of every permitted site of the consent's study when no site_id is given", async () => {
    const bySite = async (token: string, query: string) => {
      const response = await api.request("GET", `/control/v2/clinro/me/consents/${mainId}${query}`, {
        token,
      });
      expect(response.statusCode).toBe(200);
      return participantsOf(consentParticipantsResponse.parse(response.json())).map((p) => p.id);
    };
    const site1011 = await bySite(coordinator, "?site_id=1011");
    const site1012 = await bySite(coordinator, "?site_id=1012");
    const everySite = await bySite(coordinator, "");
    expect(everySite.length).toBe(site1011.length + site1012.length);
    expect(new Set(everySite)).toEqual(new Set([...site1011, ...site1012]));
    // A user of the study allowed one site sees that site only.
    const oneSite = await api.createUser({ studies: { 101: "11" } });
    await api.db
      .delete(sitePermissions)
      .where(and(eq(sitePermissions.userId, oneSite.id), eq(sitePermissions.siteId, 1012)));
    const oneSiteToken = await api.signIn(oneSite.username);
    expect(new Set(await bySite(oneSiteToken, ""))).toEqual(new Set(site1011));
    // With no site of the study, or outside the study, the answer is the same refusal.
    await api.db.delete(sitePermissions).where(eq(sitePermissions.userId, oneSite.id));
    const noSite = await api.request("GET", `/control/v2/clinro/me/consents/${mainId}`, {
      token: oneSiteToken,
    });
    expect(noSite.statusCode).toBe(403);
    expect(noSite.json()).toMatchObject({ code: "site_forbidden" });
    expect(
      (await api.request("GET", `/control/v2/clinro/me/consents/${mainId}`, { token: outsider })).statusCode,
    ).toBe(403);
    const badSite = await api.request("GET", `/control/v2/clinro/me/consents/${mainId}?site_id=`, {
      token: coordinator,
    });
    expect(badSite.statusCode).toBe(400);
    expect(JSON.stringify(badSite.json())).toContain("site_id");
  });

  it("mails the consent PDF to the participant, or says the participant has no email", async () => {
    const participantId = await newParticipant({ email: "ana.nunez@example.test" });
    expect((await clinicianSession(participantId)).statusCode).toBe(200);
    const response = await api.request(
      "GET",
      `/control/v2/clinro/email?consent_id=${mainId}&participant_id=${participantId}&version=2`,
      { token: coordinator },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: "email sent" });
    const [mail] = await mailsTo(api.dataDir, "ana.nunez@example.test");
    expect(mail?.attachments).toHaveLength(1);
    expect(mail!.attachments[0]!.contentType).toContain("application/pdf");
    expect(mail!.attachments[0]!.content.subarray(0, 5).toString()).toBe("%PDF-");
    expect(await pdfText(mail!.attachments[0]!.content)).toContain("Consent obtained by");

    const printable = await api.request(
      "GET",
      `/control/v2/clinro/email?consent_id=${mainId}&participant_id=${participantId}&version=2&pdf_type=print_to_sign`,
      { token: coordinator },
    );
    expect(printable.statusCode).toBe(200);
    expect(await mailsTo(api.dataDir, "ana.nunez@example.test")).toHaveLength(2);

    const noEmail = await newParticipant({ email: null });
    const refused = await api.request(
      "GET",
      `/control/v2/clinro/email?consent_id=${mainId}&participant_id=${noEmail}&version=2`,
      {
        token: coordinator,
      },
    );
    expect(refused.statusCode).toBe(400);
    expect(errorBody.parse(refused.json()).code).toBe("participant_has_no_email");
    expect(
      (
        await api.request(
          "GET",
          `/control/v2/clinro/email?consent_id=${mainId}&participant_id=${participantId}&version=2`,
          { token: outsider },
        )
      ).statusCode,
    ).toBe(403);
  });

  it("serves the consent text as a PDF, blank or to print and sign", async () => {
    for (const suffix of ["", "&pdf_type=print_to_sign"]) {
      const response = await api.request(
        "GET",
        `/control/v2/consent/pdf?consent_id=${mainId}&version=2&platform=clinro${suffix}`,
        {
          token: coordinator,
        },
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/pdf");
      expect(response.headers["content-disposition"]).toMatch(/^attachment;/);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(await pdfText(response.rawPayload)).toContain("Resumen en español");
    }
    expect(
      (
        await api.request("GET", `/control/v2/consent/pdf?consent_id=${mainId}&version=2&platform=web`, {
          token: coordinator,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await api.request("GET", `/control/v2/consent/pdf?consent_id=${mainId}&version=7&platform=clinro`, {
          token: coordinator,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await api.request("GET", `/control/v2/consent/pdf?consent_id=${mainId}&version=2&platform=clinro`, {
          token: outsider,
        })
      ).statusCode,
    ).toBe(403);
  });

  it("downloads only finished consents, of the study in the path", async () => {
    const participantId = await newParticipant();
    const url = (study: number) =>
      `/control/v2/studies/${study}/participants/${participantId}/download?consent_id=${mainId}`;
    expect((await api.request("GET", url(101), { token: coordinator })).statusCode).toBe(409);
    expect((await api.request("GET", url(102), { token: coordinator })).statusCode).toBe(403);
    expect((await api.request("GET", url(101), { token: outsider })).statusCode).toBe(403);
    expect(
      (
        await api.request("GET", `/control/v2/studies/101/participants/${participantId}/download`, {
          token: coordinator,
        })
      ).statusCode,
    ).toBe(400);
  });

  it("the demo's awaiting_witness participants can be witnessed and their seeded signatures verify", async () => {
    const [waiting] = await api.db
      .select({ id: consentParticipants.participantId })
      .from(consentParticipants)
      .where(
        and(eq(consentParticipants.consentId, mainId), eq(consentParticipants.status, "awaiting_witness")),
      )
      .limit(1);
    const before = await getDefinition(waiting!.id, witness);
    expect(before.signatures.length).toBeGreaterThanOrEqual(2);
    expect(before.signatures.every((signature) => signature.verified)).toBe(true);
    const response = await witnessSession(waiting!.id);
    expect(response.statusCode).toBe(200);
    expect(consentSubmissionResponse.parse(response.json()).status).toBe("complete");
    const download = await api.request(
      "GET",
      `/control/v2/studies/101/participants/${waiting!.id}/download?consent_id=${mainId}`,
      {
        token: witness,
      },
    );
    expect(download.headers["x-signatures-verified"]).toBe("true");
  });

  it("a new version sends every participant who had not declined back to awaiting_participant", async () => {
    const [genetic] = await api.db
      .select()
      .from(consents)
      .where(eq(consents.title, "Optional Genetic Sub-study Consent"));
    const agreed = await newParticipant({ consentId: genetic!.id });
    const declined = await newParticipant({ consentId: genetic!.id });
    const current = await api.request("GET", definitionUrl(declined, 1, genetic!.id), { token: coordinator });
    const declineBody = consentDefinitionResponse.parse(current.json());
    expect(
      (await post(declined, await body(declineBody, [decision(declineBody.definition, "decline")])))
        .statusCode,
    ).toBe(200);
    const outcome = await importConsent(api.db, {
      studyId: 101,
      json: { ...demoConsentJson("mdd301-genetic-substudy.json"), consent_version: 2 },
    });
    expect(outcome).toMatchObject({ created: false, consentId: genetic!.id, version: 2 });
    expect(await statusOf(agreed, genetic!.id)).toEqual({ status: "awaiting_participant", version: 2 });
    expect(await statusOf(declined, genetic!.id)).toEqual({ status: "declined", version: 1 });
    const [seededComplete] = await api.db
      .select({ status: consentParticipants.status })
      .from(consentParticipants)
      .where(and(eq(consentParticipants.consentId, genetic!.id), eq(consentParticipants.version, 2)))
      .limit(1);
    expect(seededComplete?.status).toBe("awaiting_participant");
    // The published version 1 is immutable.
    await expect(
      api.db.execute(
        sql`update consent_versions set definition = '{}'::jsonb where consent_id = ${genetic!.id}`,
      ),
    ).rejects.toThrow();
  });
});
