/**
 * The FHIR R4 export (server/study-export/fhir/): the writer on hand-built export sources (every
 * question type, sibling groups, matrix rows, multiple fields, scores; Bundle and NDJSON), and
 * GET /control/studies/{id}/export?format=fhir (Bundle) and &layout=ndjson on both databases
 * after real submissions. Every resource is validated against the official FHIR R4 JSON schema,
 * and every QuestionnaireResponse against its Questionnaire (linkIds, answer types, required
 * items that are enabled).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { asc, and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { EXPORT_CONTENT_TYPES } from "../../core/contracts/study-export.ts";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { valueEntry } from "../../core/survey-engine/answer-values.ts";
import { lookupOf } from "../../core/survey-engine/flow.ts";
import { scoreSurvey } from "../../core/survey-engine/scores.ts";
import {
  consentSignatures,
  consentSignings,
  instrumentSubmissions,
  participants,
} from "../../server/db/schema.ts";
import { readDemoDefinition } from "../../server/seed/demo-instruments.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import type {
  ExportConsentSigning,
  ExportSource,
  ExportSubmission,
  SubmissionOrder,
} from "../../server/study-export/export-source.ts";
import {
  CALCULATED_EXPRESSION_URL,
  CLINRO_EXTENSION,
  ORDINAL_VALUE_URL,
  RESPONSE_SIGNATURE_URL,
  type Bundle,
  type Questionnaire,
  type QuestionnaireItem,
  type QuestionnaireResponse,
  type ResponseItem,
} from "../../server/study-export/fhir/fhir-resources.ts";
import { writeFhirExport, type FhirExportOptions } from "../../server/study-export/fhir/write-fhir-export.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { DRAWING, answerSet } from "../support/fhir-answer-sets.ts";
import { fhirSchemaErrors, responseProblems } from "../support/fhir-schema.ts";
import { chosen, parseDefinitionOrThrow, recordsFor } from "../support/submissions.ts";
import {
  coordinatorSubmittingForNewParticipant,
  everySelectOneAnswered,
} from "../support/submitted-study.ts";

const kitchenSink = parseDefinitionOrThrow(readDemoDefinition("kitchen-sink"));
const hamd = parseDefinitionOrThrow(readDemoDefinition("ham-d-17"));

const consent = parseDefinitionOrThrow(
  JSON.parse(
    readFileSync(new URL("../../server/seed/consents/mdd301-main-consent.json", import.meta.url), "utf8"),
  ),
);

const COMPLETED = new Date("2026-11-20T09:00:00.000Z");
const RECEIVED = new Date("2026-11-20T09:00:05.000Z");
const alice = { id: 1, subjectId: "S-001", siteId: 11 };
const bob = { id: 2, subjectId: "S-002", siteId: 12 };
/** Enrolled without a subject id: FHIR allows no empty identifier. */
const carol = { id: 3, subjectId: "", siteId: 12 };

function submission(
  id: number,
  instrumentId: number,
  definition: SurveyDefinition,
  participant: ExportSubmission["participant"],
  answers: ExportSubmission["answers"],
): ExportSubmission {
  return {
    id,
    instrumentId,
    versionNumber: 1,
    participant,
    completedBy: 7,
    deviceCompletedAt: COMPLETED,
    receivedAt: RECEIVED,
    deviceStartedAt: "2026-11-20T08:50:00.000Z",
    browserInfo: "Mozilla/5.0 (test)",
    answers,
    scores: scoreSurvey(definition, lookupOf(answers)),
  };
}

/** Every question type answered, as the first submission; the answer sets follow. */
const everyType: Record<string, AnswerEntry[]> = {
  color: [chosen(kitchenSink, "color", "red")],
  symptoms: [chosen(kitchenSink, "symptoms", "headache"), chosen(kitchenSink, "symptoms", "fatigue")],
  notes: [valueEntry("Said fine")],
  weight: [valueEntry(70.5)],
  age: [valueEntry(42)],
  mood5: [chosen(kitchenSink, "mood5", "l5_4")],
  mood7: [chosen(kitchenSink, "mood7", "l7_6")],
  wake_time: [valueEntry("2026-11-20T07:15:00+01:00")],
  visit_date: [valueEntry("2026-11-19T00:00:00.000Z")],
  visit_datetime: [valueEntry("2026-11-19T13:30:00.000Z")],
  pain: [valueEntry(8)],
  vitals: [
    { ...valueEntry("120/80"), question: "blood_pressure" },
    { ...valueEntry(72), question: "heart_rate" },
    { ...valueEntry(36.6), question: "temperature" },
  ],
  sleep_matrix: [
    { ...chosen(kitchenSink, "sleep_matrix", "often"), question: "fall_asleep" },
    { ...chosen(kitchenSink, "sleep_matrix", "never"), question: "wake_night" },
  ],
  drawing: [valueEntry(DRAWING, "drawing")],
  photos: [valueEntry("101_1_31_photos_1732270000000-ab12.jpeg")],
  daily_feeling: [chosen(kitchenSink, "daily_feeling", "good")],
  daily_energy: [valueEntry(6)],
};

const submissions: ExportSubmission[] = [
  submission(501, 31, kitchenSink, alice, recordsFor(kitchenSink, everyType, COMPLETED)),
  ...[0, 1, 2, 3, 4, 5].map((seed) =>
    submission(510 + seed, 31, kitchenSink, seed % 2 ? bob : alice, answerSet(kitchenSink, seed, COMPLETED)),
  ),
  ...[0, 1, 2].map((seed) => submission(520 + seed, 32, hamd, bob, answerSet(hamd, seed, COMPLETED))),
  submission(530, 32, hamd, carol, answerSet(hamd, 9, COMPLETED)),
];

const textSignature = (name: string, at: string): AnswerEntry => ({
  label: name,
  value: name,
  signature_type: "text",
  signed_date: at,
});

/** A consent signed in two sessions: the clinician's (decision, participant and clinician), then a witness's. */
const clinicianSession: ExportConsentSigning = {
  id: 901,
  consentId: 41,
  version: 2,
  participant: alice,
  userId: 7,
  endpoint: "clinro",
  deviceCompletedAt: COMPLETED,
  receivedAt: RECEIVED,
  records: [
    makeRecord(consent.questions["decision"]!, [chosen(consent, "decision", "agree")], COMPLETED),
    makeRecord(
      consent.questions["participant_signature"]!,
      [textSignature("Alice Martin", "2026-11-20T09:59:00+01:00")],
      COMPLETED,
    ),
    makeRecord(
      consent.questions["clinician_signature"]!,
      [textSignature("Dr Coordinator", "2026-11-20T10:00:00+01:00")],
      COMPLETED,
    ),
  ],
  signatures: [
    {
      questionId: "participant_signature",
      role: "participant",
      meaning: "Participant consent",
      printedName: "Alice Martin",
      signatureType: "text",
      signerUserId: null,
      capturedAt: "2026-11-20T09:59:00+01:00",
      receivedAt: RECEIVED,
      timeZone: "Europe/Paris",
      hash: "abc",
    },
    {
      questionId: "clinician_signature",
      role: "clinro",
      meaning: "Consent obtained by",
      printedName: "Dr Coordinator",
      signatureType: "text",
      signerUserId: 7,
      capturedAt: "2026-11-20T10:00:00+01:00",
      receivedAt: RECEIVED,
      timeZone: "Europe/Paris",
      hash: "def",
    },
  ],
  status: "complete",
};
const witnessSession: ExportConsentSigning = {
  ...clinicianSession,
  id: 902,
  userId: 8,
  endpoint: "witness",
  deviceCompletedAt: new Date("2026-11-20T09:30:00.000Z"),
  receivedAt: new Date("2026-11-20T09:30:02.000Z"),
  records: [
    makeRecord(
      consent.questions["witness_signature"]!,
      [textSignature("Wanda Witness", "2026-11-20T10:30:00+01:00")],
      COMPLETED,
    ),
  ],
  signatures: [
    {
      questionId: "witness_signature",
      role: "witness",
      meaning: "Witnessed the consent",
      printedName: "Wanda Witness",
      signatureType: "text",
      signerUserId: 8,
      capturedAt: "2026-11-20T10:30:00+01:00",
      receivedAt: new Date("2026-11-20T09:30:02.000Z"),
      timeZone: "Europe/Paris",
      hash: "ghi",
    },
  ],
};
/** Bob's consent, by the clinician alone: a response of its own. */
const bobSession: ExportConsentSigning = { ...clinicianSession, id: 903, participant: bob, signatures: [] };

async function* each<T>(items: readonly T[]) {
  for (const item of items) yield await Promise.resolve(item);
}

function handBuiltSource(overrides: Partial<ExportSource> = {}): ExportSource {
  return {
    scope: { studyId: 101 },
    study: { id: 101, name: "MDD-301" },
    sites: [
      { id: 11, label: "Site Paris", treeLevel: 1, isVirtual: false, retired: false },
      { id: 12, label: "Site Lyon", treeLevel: 1, isVirtual: false, retired: false },
    ],
    users: [
      { id: 7, email: "coordinator@demo.test", name: "Dr Coordinator" },
      { id: 8, email: "witness@demo.test", name: "Wanda Witness" },
    ],
    instrumentVersions: [
      {
        instrumentId: 31,
        slug: "kitchen-sink",
        name: "Kitchen sink",
        instrumentType: "CLINRO",
        versionNumber: 1,
        definition: kitchenSink,
      },
      {
        instrumentId: 32,
        slug: "ham-d-17",
        name: "HAM-D 17",
        instrumentType: "CLINRO",
        versionNumber: 1,
        definition: hamd,
      },
    ],
    consentVersions: [{ consentId: 41, title: "Main consent", version: 2, definition: consent }],
    submissions: (order: SubmissionOrder) => {
      expect(order).toBe("by-form");
      return each(submissions);
    },
    consentSignings: () => each([clinicianSession, witnessSession, bobSession]),
    ...overrides,
  };
}

type Resource = Questionnaire | QuestionnaireResponse;

async function exportText(
  source: ExportSource,
  layout: "bundle" | "ndjson",
  options: FhirExportOptions = {},
) {
  let text = "";
  for await (const chunk of writeFhirExport(source, layout, { now: RECEIVED, ...options })) text += chunk;
  return text;
}

function resourcesOfBundle(text: string): Resource[] {
  const bundle = JSON.parse(text) as Bundle;
  expect(bundle.resourceType).toBe("Bundle");
  expect(bundle.type).toBe("collection");
  return (bundle.entry ?? []).map((entry) => entry.resource);
}

function resourcesOfNdjson(text: string): Resource[] {
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Resource);
}

/** Every resource valid, and every response conforming to its Questionnaire. */
function expectConformingExport(resources: readonly Resource[]) {
  const questionnaires = new Map<string, Questionnaire>();
  for (const resource of resources) {
    expect(fhirSchemaErrors(resource), `${resource.resourceType}/${resource.id}`).toEqual([]);
    if (resource.resourceType === "Questionnaire") {
      questionnaires.set(`${resource.url}|${resource.version}`, resource);
      continue;
    }
    const questionnaire = questionnaires.get(resource.questionnaire);
    expect(questionnaire, `the Questionnaire of ${resource.id} comes before it`).toBeDefined();
    expect(responseProblems(resource, questionnaire!), resource.id).toEqual([]);
  }
}

function itemsOf(
  items: readonly (QuestionnaireItem | ResponseItem)[] | undefined,
): Map<string, ResponseItem> {
  const found = new Map<string, ResponseItem>();
  const visit = (list: readonly ResponseItem[] | undefined) => {
    for (const item of list ?? []) {
      found.set(item.linkId, item);
      visit(item.item);
    }
  };
  visit(items as ResponseItem[] | undefined);
  return found;
}

function questionnaireItems(questionnaire: Questionnaire): Map<string, QuestionnaireItem> {
  const found = new Map<string, QuestionnaireItem>();
  const visit = (list: readonly QuestionnaireItem[] | undefined) => {
    for (const item of list ?? []) {
      found.set(item.linkId, item);
      visit(item.item);
    }
  };
  visit(questionnaire.item);
  return found;
}

describe("FHIR R4 export writer on hand-built sources", () => {
  it("writes a Bundle of every Questionnaire then every response, each valid and conforming", async () => {
    const resources = resourcesOfBundle(await exportText(handBuiltSource(), "bundle"));
    expect(resources.map((resource) => resource.resourceType)).toEqual([
      "Questionnaire",
      "Questionnaire",
      "Questionnaire",
      ...submissions.map(() => "QuestionnaireResponse"),
      "QuestionnaireResponse",
      "QuestionnaireResponse",
    ]);
    expectConformingExport(resources);
  });

  it("writes the same resources as NDJSON, one a line", async () => {
    const bundle = resourcesOfBundle(await exportText(handBuiltSource(), "bundle"));
    const lines = resourcesOfNdjson(await exportText(handBuiltSource(), "ndjson"));
    expect(lines).toEqual(bundle);
  });

  it("writes a valid Bundle for a study with no instruments or data (no empty entry list)", async () => {
    const empty = handBuiltSource({
      instrumentVersions: [],
      consentVersions: [],
      submissions: () => each([]),
      consentSignings: () => each([]),
    });
    const text = await exportText(empty, "bundle");
    const bundle = JSON.parse(text) as Bundle;
    expect(bundle.entry).toBeUndefined();
    expect(fhirSchemaErrors(bundle)).toEqual([]);
    expect(await exportText(empty, "ndjson")).toBe("");
  });

  it("writes each instrument version as a Questionnaire: canonical URL and version, types, options with scores, logic, scores", async () => {
    const [sink, hamdQuestionnaire] = resourcesOfBundle(
      await exportText(handBuiltSource(), "bundle", { publicUrl: "https://portal.example.org/" }),
    ) as Questionnaire[];
    expect(sink!.url).toBe("https://portal.example.org/fhir/Questionnaire/study-101-kitchen-sink");
    expect(sink!.version).toBe("1");
    expect(sink!.title).toBe(kitchenSink.title);
    expect(hamdQuestionnaire!.url).toBe("https://portal.example.org/fhir/Questionnaire/study-101-ham-d-17");
    const items = questionnaireItems(sink!);
    const type = (linkId: string) => items.get(linkId)?.type;
    expect(
      ["intro", "color", "notes", "weight", "age", "visit_date", "visit_datetime", "wake_time", "pain"].map(
        type,
      ),
    ).toEqual(["display", "choice", "string", "decimal", "integer", "date", "dateTime", "time", "integer"]);
    expect(items.get("symptoms")!.repeats).toBe(true);
    expect(items.get("color")!.required).toBe(true);
    expect(items.get("color")!.answerOption![2]).toEqual({
      valueCoding: { code: "blue", display: "Blue" },
      extension: [{ url: ORDINAL_VALUE_URL, valueDecimal: 3 }],
    });
    // matrix rows and multiple-field fields inside their group; the sibling group as a group
    expect(items.get("sleep_matrix")!.item!.map((row) => [row.linkId, row.type])).toEqual([
      ["sleep_matrix/fall_asleep", "choice"],
      ["sleep_matrix/wake_night", "choice"],
    ]);
    expect(items.get("vitals")!.item!.map((field) => field.type)).toEqual(["string", "integer", "decimal"]);
    expect(items.get("sibling:daily")!.item!.map((member) => member.linkId)).toEqual([
      "daily_feeling",
      "daily_energy",
      "daily_comment",
    ]);
    // show-if as enableWhen where FHIR can say it
    expect(items.get("symptoms")!.enableWhen).toEqual([
      { question: "color", operator: "!=", answerCoding: { code: "blue" } },
    ]);
    expect(items.get("notes_missing")!.enableWhen).toEqual([
      { question: "notes", operator: "exists", answerBoolean: false },
    ]);
    expect(items.get("wake_time")!.enableWhen).toEqual([
      { question: "age", operator: ">", answerInteger: 17 },
    ]);
    // ...and kept verbatim where it cannot (>= on a choice's score; nested and/or)
    for (const linkId of ["mood7", "combined_note"]) {
      expect(items.get(linkId)!.enableWhen).toBeUndefined();
      const kept = items
        .get(linkId)!
        .extension!.find((extension) => extension.url === CLINRO_EXTENSION.showIf);
      expect(JSON.parse(kept!.valueString!)).toEqual({
        show_if: kitchenSink.questions[linkId]!.logic!.show_if,
        operator: "and",
      });
    }
    // the score as a read-only calculated item
    const wellbeing = items.get("score:wellbeing")!;
    expect(wellbeing.readOnly).toBe(true);
    const calculated = wellbeing.extension!.find((extension) => extension.url === CALCULATED_EXPRESSION_URL);
    expect(calculated!.valueExpression!.expression).toBe(
      "(%resource.repeat(item).where(linkId='mood5').answer.value.weight())" +
        ".combine(%resource.repeat(item).where(linkId='daily_energy').answer.value)" +
        ".combine(%resource.repeat(item).where(linkId='pain').answer.value).sum()",
    );
  });

  it("writes each submission as a QuestionnaireResponse with typed answers, its subject, author, times and scores", async () => {
    const resources = resourcesOfBundle(
      await exportText(handBuiltSource(), "bundle", { publicUrl: "https://portal.example.org" }),
    );
    const response = resources.find((resource) => resource.id === "submission-501") as QuestionnaireResponse;
    expect(response.questionnaire).toBe(
      "https://portal.example.org/fhir/Questionnaire/study-101-kitchen-sink|1",
    );
    expect(response.status).toBe("completed");
    expect(response.subject).toEqual({
      type: "Patient",
      identifier: { system: "https://portal.example.org/fhir/study-101/subject-id", value: "S-001" },
      display: "S-001",
    });
    expect(response.author).toEqual({
      type: "Practitioner",
      identifier: { system: "https://portal.example.org/fhir/staff-email", value: "coordinator@demo.test" },
      display: "Dr Coordinator",
    });
    expect(response.authored).toBe(COMPLETED.toISOString());
    expect(response.extension).toEqual(
      expect.arrayContaining([
        { url: CLINRO_EXTENSION.receivedAt, valueDateTime: RECEIVED.toISOString() },
        { url: CLINRO_EXTENSION.site, valueString: "Site Paris" },
      ]),
    );
    const items = itemsOf(response.item);
    const answers = (linkId: string) => items.get(linkId)?.answer;
    expect(answers("color")).toEqual([{ valueCoding: { code: "red", display: "Red" } }]);
    expect(answers("symptoms")!.map((answer) => answer.valueCoding!.code)).toEqual(["headache", "fatigue"]);
    expect(answers("weight")).toEqual([{ valueDecimal: 70.5 }]);
    expect(answers("age")).toEqual([{ valueInteger: 42 }]);
    expect(answers("visit_date")).toEqual([{ valueDate: "2026-11-19" }]);
    expect(answers("visit_datetime")).toEqual([{ valueDateTime: "2026-11-19T13:30:00.000Z" }]);
    expect(answers("wake_time")).toEqual([{ valueTime: "07:15:00" }]);
    expect(answers("notes")).toEqual([{ valueString: "Said fine" }]);
    expect(answers("sleep_matrix/fall_asleep")).toEqual([
      { valueCoding: { code: "often", display: "Often" } },
    ]);
    expect(answers("vitals/heart_rate")).toEqual([{ valueInteger: 72 }]);
    expect(answers("vitals/temperature")).toEqual([{ valueDecimal: 36.6 }]);
    expect(answers("drawing")![0]!.valueAttachment!.contentType).toBe("image/png");
    expect(answers("photos")![0]!.valueAttachment!.title).toBe("101_1_31_photos_1732270000000-ab12.jpeg");
    expect(items.get("sibling:daily")!.item!.map((item) => item.linkId)).toEqual([
      "daily_feeling",
      "daily_energy",
    ]);
    // 4 (Agree) + 6 + 8: the server's final value
    expect(answers("score:wellbeing")).toEqual([{ valueDecimal: 18 }]);
    const carols = resources.find((resource) => resource.id === "submission-530") as QuestionnaireResponse;
    expect(carols.subject).toEqual({
      type: "Patient",
      identifier: { system: "https://portal.example.org/fhir/study-101/participant-id", value: "3" },
    });
    // Without a public URL, canonical URLs and identifier systems are urn: names.
    const plain = resourcesOfBundle(await exportText(handBuiltSource(), "bundle"));
    expect((plain.at(-3) as QuestionnaireResponse).questionnaire).toBe(
      "urn:clinro:study-101:questionnaire:ham-d-17|1",
    );
  });

  it("writes each signed consent as one response of its version: the witness's session joined, every signature with its type, meaning, signer and time", async () => {
    const resources = resourcesOfBundle(await exportText(handBuiltSource(), "bundle"));
    const questionnaire = resources.find(
      (resource) => resource.resourceType === "Questionnaire" && resource.url?.endsWith("consent-41"),
    ) as Questionnaire;
    expect(questionnaire.version).toBe("2");
    expect(questionnaire.title).toBe(consent.title);
    const responses = resources.filter(
      (resource): resource is QuestionnaireResponse =>
        resource.resourceType === "QuestionnaireResponse" && resource.id!.startsWith("consent-signing-"),
    );
    expect(responses.map((response) => response.id)).toEqual(["consent-signing-901", "consent-signing-903"]);
    const [alices] = responses;
    expect(alices!.questionnaire).toBe("urn:clinro:study-101:questionnaire:consent-41|2");
    expect(alices!.subject?.identifier?.value).toBe("S-001");
    expect(alices!.author?.identifier?.value).toBe("coordinator@demo.test");
    expect(alices!.authored).toBe("2026-11-20T09:30:00.000Z");
    const items = itemsOf(alices!.item);
    expect(items.get("decision")!.answer![0]!.valueCoding!.code).toBe("agree");
    expect(items.get("witness_signature")!.answer).toEqual([{ valueAttachment: { title: "Wanda Witness" } }]);
    const signatures = alices!
      .extension!.filter((extension) => extension.url === RESPONSE_SIGNATURE_URL)
      .map((extension) => extension.valueSignature);
    expect(signatures).toEqual([
      {
        type: [
          {
            system: "urn:iso-astm:E1762-95:2013",
            code: "1.2.840.10065.1.12.1.7",
            display: "Consent Signature",
          },
          { system: "urn:clinro:fhir:signature-meaning", display: "Participant consent" },
        ],
        when: "2026-11-20T08:59:00.000Z",
        who: {
          type: "Patient",
          identifier: { system: "urn:clinro:study-101:subject-id", value: "S-001" },
          display: "Alice Martin",
        },
      },
      {
        type: [
          {
            system: "urn:iso-astm:E1762-95:2013",
            code: "1.2.840.10065.1.12.1.5",
            display: "Verification Signature",
          },
          { system: "urn:clinro:fhir:signature-meaning", display: "Consent obtained by" },
        ],
        when: "2026-11-20T09:00:00.000Z",
        who: {
          type: "Practitioner",
          identifier: { system: "urn:clinro:staff-email", value: "coordinator@demo.test" },
          display: "Dr Coordinator",
        },
      },
      {
        type: [
          {
            system: "urn:iso-astm:E1762-95:2013",
            code: "1.2.840.10065.1.12.1.11",
            display: "Consent Witness Signature",
          },
          { system: "urn:clinro:fhir:signature-meaning", display: "Witnessed the consent" },
        ],
        when: "2026-11-20T09:30:00.000Z",
        who: {
          type: "Practitioner",
          identifier: { system: "urn:clinro:staff-email", value: "witness@demo.test" },
          display: "Wanda Witness",
        },
      },
    ]);
    expect(responses[1]!.extension!.some((extension) => extension.url === RESPONSE_SIGNATURE_URL)).toBe(
      false,
    );
  });

  it("the response checker finds an unknown linkId, a wrong answer type, a code not offered and a required item left out", async () => {
    const resources = resourcesOfBundle(await exportText(handBuiltSource(), "bundle"));
    const questionnaire = resources[0] as Questionnaire;
    const response = structuredClone(
      resources.find((resource) => resource.id === "submission-501") as QuestionnaireResponse,
    );
    const items = response.item!;
    items.push({ linkId: "nowhere", answer: [{ valueString: "x" }] });
    const color = items.find((item) => item.linkId === "color")!;
    color.answer = [{ valueCoding: { code: "purple" } }];
    const age = items.find((item) => item.linkId === "age")!;
    age.answer = [{ valueString: "forty" }];
    response.item = items.filter((item) => item.linkId !== "weight");
    expect(responseProblems(response, questionnaire)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("linkId nowhere"),
        expect.stringContaining("purple is not one of its answerOptions"),
        expect.stringContaining("linkId age: answer valueString for a integer item"),
        expect.stringContaining("linkId weight: required and enabled"),
      ]),
    );
  });
});

describe("the FHIR checks themselves", () => {
  it("refuse what the schema allows but R4's Questionnaire invariants forbid", () => {
    const problems = fhirSchemaErrors({
      resourceType: "Questionnaire",
      status: "active",
      item: [
        { linkId: "a", type: "display", text: "A", item: [{ linkId: "b", type: "display", text: "B" }] },
        { linkId: "a", type: "group" },
        {
          linkId: "c",
          type: "string",
          enableWhen: [
            { question: "a", operator: "exists", answerBoolean: true },
            { question: "nowhere", operator: "exists", answerBoolean: true },
          ],
        },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "item a: que-1 display with items",
        "item a: que-2 linkId not unique",
        "item a: que-1 group without items",
        "item c: que-12 enableBehavior missing",
        "item c: enableWhen names nowhere, which is not an item",
      ]),
    );
  });

  it("refuse the empty arrays and strings FHIR JSON forbids", () => {
    expect(
      fhirSchemaErrors({ resourceType: "Questionnaire", status: "active", item: [], title: "" }),
    ).toEqual(expect.arrayContaining(["/item: empty array", "/title: empty string"]));
  });
});

describeOnEachDatabase("GET /control/studies/{studyId}/export?format=fhir", (api) => {
  const ids = { kitchen: 0, hamd: 0, coordinator: 0, participant: 0 };
  const subjectId = `FHIR-${randomUUID().slice(0, 8)}`;
  let bundle: Resource[] = [];
  let ndjson: Resource[] = [];
  const contentTypes: string[] = [];

  beforeAll(async () => {
    const study = await coordinatorSubmittingForNewParticipant(api, {
      fname: "Fia",
      lname: "Hir",
      subjectId,
    });
    ids.kitchen = study.kitchenSink.id;
    ids.hamd = study.hamd.id;
    ids.coordinator = study.coordinatorId;
    ids.participant = study.participantId;
    const sink = study.kitchenSink.definition;
    await study.submit(study.kitchenSink, {
      color: [chosen(sink, "color", "green")],
      symptoms: [chosen(sink, "symptoms", "nausea")],
      notes: [valueEntry("All good")],
      weight: [valueEntry(82.5)],
      age: [valueEntry(30)],
      mood5: [chosen(sink, "mood5", "l5_2")],
      pain: [valueEntry(9)],
      sleep_matrix: [
        { ...chosen(sink, "sleep_matrix", "sometimes"), question: "fall_asleep" },
        { ...chosen(sink, "sleep_matrix", "often"), question: "wake_night" },
      ],
      daily_energy: [valueEntry(3)],
    });
    await study.submit(
      study.hamd,
      everySelectOneAnswered(study.hamd.definition, () => "c1"),
    );

    const token = await api.signIn("coordinator@demo.test");
    for (const layout of ["", "&layout=ndjson"]) {
      const response = await api.request(
        "GET",
        `/control/studies/101/export?format=fhir&site_id=1011${layout}`,
        {
          token,
        },
      );
      expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
      contentTypes.push(String(response.headers["content-type"]));
      if (layout === "") bundle = resourcesOfBundle(response.body);
      else ndjson = resourcesOfNdjson(response.body);
    }
  });

  it("answers a Bundle (application/fhir+json) and NDJSON (application/fhir+ndjson) of the same resources", () => {
    expect(contentTypes[0]!.startsWith(EXPORT_CONTENT_TYPES.fhirBundle)).toBe(true);
    expect(contentTypes[1]!.startsWith(EXPORT_CONTENT_TYPES.fhirNdjson)).toBe(true);
    expect(ndjson).toEqual(bundle);
    expect(bundle.filter((resource) => resource.resourceType === "Questionnaire").length).toBeGreaterThan(0);
  });

  it("every resource validates against the FHIR R4 schema and every response conforms to its Questionnaire", () => {
    expectConformingExport(bundle);
  });

  it("writes each submission of the participant with its subject, answers and the server's scores", async () => {
    const ours = bundle.filter(
      (resource): resource is QuestionnaireResponse =>
        resource.resourceType === "QuestionnaireResponse" &&
        resource.subject?.identifier?.value === subjectId,
    );
    const stored = await api.db
      .select()
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.participantId, ids.participant))
      .orderBy(asc(instrumentSubmissions.id));
    // by form: grouped by instrument, so match them by submission id
    expect(ours.map((response) => response.id).sort()).toEqual(
      stored.map((row) => `submission-${row.id}`).sort(),
    );
    const responseOf = (row: (typeof stored)[number]) =>
      ours.find((response) => response.id === `submission-${row.id}`)!;
    const slugOf = new Map([
      [ids.kitchen, "kitchen-sink"],
      [ids.hamd, "ham-d-17"],
    ]);
    for (const row of stored) {
      const response = responseOf(row);
      expect(response.questionnaire).toBe(
        `urn:clinro:study-101:questionnaire:${slugOf.get(row.instrumentId)}|1`,
      );
      const items = itemsOf(response.item);
      for (const score of row.scores as { id: string; final_value: number }[]) {
        expect(items.get(`score:${score.id}`)?.answer).toEqual([{ valueDecimal: score.final_value }]);
      }
      expect(response.author?.identifier?.value).toBe("coordinator@demo.test");
      expect(response.authored).toBe(row.completedAt.toISOString());
    }
    const [sinkRow, hamdRow] = [ids.kitchen, ids.hamd].map((id) =>
      stored.find((row) => row.instrumentId === id)!,
    );
    const sink = itemsOf(responseOf(sinkRow!).item);
    expect(sink.get("color")!.answer).toEqual([{ valueCoding: { code: "green", display: "Green" } }]);
    expect(sink.get("weight")!.answer).toEqual([{ valueDecimal: 82.5 }]);
    expect(sink.get("sleep_matrix/wake_night")!.answer![0]!.valueCoding!.code).toBe("often");
    // Disagree (2) + energy 3 + pain 9
    expect(sink.get("score:wellbeing")!.answer).toEqual([{ valueDecimal: 14 }]);
    expect(itemsOf(responseOf(hamdRow!).item).get("score:total")!.answer).toEqual([{ valueDecimal: 17 }]);
  });

  it("writes every consent signature of the site on its consent's response, with the stated meaning and time", async () => {
    const signatures = await api.db
      .select()
      .from(consentSignatures)
      .innerJoin(consentSignings, eq(consentSignings.id, consentSignatures.signingId))
      .innerJoin(participants, eq(participants.id, consentSignings.participantId))
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)))
      .orderBy(asc(consentSignatures.id));
    expect(signatures.length).toBeGreaterThan(0);
    const written = bundle
      .filter(
        (resource): resource is QuestionnaireResponse =>
          resource.resourceType === "QuestionnaireResponse" && resource.id!.startsWith("consent-signing-"),
      )
      .flatMap((response) =>
        response
          .extension!.filter((extension) => extension.url === RESPONSE_SIGNATURE_URL)
          .map((extension) => ({
            meaning: extension.valueSignature!.type[1]?.display,
            printedName: extension.valueSignature!.who.display,
            when: extension.valueSignature!.when,
          })),
      );
    expect(written).toHaveLength(signatures.length);
    for (const { consent_signatures: signature } of signatures) {
      expect(written).toContainEqual({
        meaning: signature.meaning,
        printedName: signature.printedName,
        when: new Date(signature.capturedAt).toISOString(),
      });
    }
  });
});
