/**
 * The CDISC ODM 1.3.2 export (server/study-export/odm/): the writer on hand-built export sources
 * (every question type, select multiple, matrix, scores, consent signatures, XML special
 * characters in labels and answers), and GET /control/studies/{id}/export?format=odm on both
 * databases after real submissions and the demo's consents; each document checked by xmllint
 * against the official schema and read back to see the expected SubjectData, FormData,
 * AuditRecord and Signature.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { and, asc, eq } from "drizzle-orm";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { EXPORT_CONTENT_TYPES } from "../../core/contracts/study-export.ts";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { valueEntry } from "../../core/survey-engine/answer-values.ts";
import type {
  ExportConsentSigning,
  ExportSource,
  ExportSubmission,
  SubmissionOrder,
} from "../../server/study-export/export-source.ts";
import {
  consentSignatures,
  consentSignings,
  instrumentSubmissions,
  participants,
} from "../../server/db/schema.ts";
import { writeOdmExport } from "../../server/study-export/odm/write-odm-export.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { chosen, parseDefinitionOrThrow, recordsFor } from "../support/submissions.ts";
import {
  coordinatorSubmittingForNewParticipant,
  everySelectOneAnswered,
} from "../support/submitted-study.ts";
import { odmSchemaCheckAvailable, odmSchemaTestNote, validateOdm } from "../support/xmllint.ts";

const seedJson = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../server/seed/${path}`, import.meta.url), "utf8"));
const kitchenSink = parseDefinitionOrThrow(seedJson("instruments/kitchen-sink.json"));
const consent = parseDefinitionOrThrow(seedJson("consents/mdd301-main-consent.json"));

/** Labels, choices and answers full of what XML must escape, and characters it cannot hold. */
const AWKWARD = `<b>"Tom & Jerry's"</b> ]]> \u0001 tab\there\nnew line`;
const special = parseDefinitionOrThrow({
  id: "special",
  type: "CLINRO",
  title: AWKWARD,
  version: 1,
  order: ["pick", "say"],
  questions: {
    pick: {
      id: "pick",
      type: "select_one",
      label: AWKWARD,
      choices: { "a&b": { label: AWKWARD, score_value: 1 }, c: { label: "C", score_value: 2 } },
      choices_order: ["a&b", "c"],
    },
    say: { id: "say", type: "text", label: "Say <something>" },
  },
  scores: [{ id: "total", name: "Total & more", formula: "{pick}" }],
});

const COMPLETED = new Date("2026-11-20T09:00:00.000Z");
const RECEIVED = new Date("2026-11-20T09:00:05.000Z");

function submission(
  id: number,
  instrumentId: number,
  definition: SurveyDefinition,
  participant: ExportSubmission["participant"],
  answers: Record<string, AnswerEntry[]>,
  scores: ExportSubmission["scores"] = [],
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
    browserInfo: "Mozilla/5.0 <test> & co",
    answers: recordsFor(definition, answers, COMPLETED),
    scores,
  };
}

const alice = { id: 1, subjectId: "S-001 <A&B>", siteId: 11 };
const bob = { id: 2, subjectId: "S-002", siteId: 12 };
/** Enrolled without a subject id: ODM's SubjectKey may not be empty. */
const carol = { id: 3, subjectId: "", siteId: 12 };

const submissions: ExportSubmission[] = [
  submission(
    501,
    31,
    kitchenSink,
    alice,
    {
      color: [chosen(kitchenSink, "color", "red")],
      symptoms: [chosen(kitchenSink, "symptoms", "headache"), chosen(kitchenSink, "symptoms", "fatigue")],
      notes: [valueEntry(AWKWARD.slice(0, 60))],
      weight: [valueEntry(70.5)],
      age: [valueEntry(42)],
      mood5: [chosen(kitchenSink, "mood5", "l5_4")],
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
      photos: [valueEntry("101_1_31_photos_1732270000000-ab12.jpeg")],
      daily_feeling: [chosen(kitchenSink, "daily_feeling", "good")],
      daily_energy: [valueEntry(6)],
    },
    [
      {
        id: "wellbeing",
        name: "Wellbeing",
        formula: "sum({mood5}, {daily_energy}) + {pain}",
        final_value: 18,
      },
    ],
  ),
  submission(
    502,
    32,
    special,
    alice,
    { pick: [chosen(special, "pick", "a&b")], say: [valueEntry(`I said "<no>" & left \u0002`)] },
    [{ id: "total", name: "Total & more", formula: "{pick}", final_value: 1 }],
  ),
  submission(503, 31, kitchenSink, bob, { color: [chosen(kitchenSink, "color", "blue")] }),
  submission(504, 31, kitchenSink, carol, { color: [chosen(kitchenSink, "color", "green")] }),
];

const signing: ExportConsentSigning = {
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
      [
        {
          label: "Alice O'Neil & co",
          value: "Alice O'Neil & co",
          signature_type: "text",
          signed_date: "2026-11-20T09:59:00+01:00",
        },
      ],
      COMPLETED,
    ),
    makeRecord(
      consent.questions["clinician_signature"]!,
      [
        {
          label: "Dr Coordinator",
          value: "Dr Coordinator",
          signature_type: "text",
          signed_date: "2026-11-20T10:00:00+01:00",
        },
      ],
      COMPLETED,
    ),
  ],
  signatures: [
    {
      questionId: "participant_signature",
      role: "participant",
      meaning: "Participant consent",
      printedName: "Alice O'Neil & co",
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

async function* each<T>(items: readonly T[]) {
  for (const item of items) yield await Promise.resolve(item);
}

function handBuiltSource(overrides: Partial<ExportSource> = {}): ExportSource {
  return {
    scope: { studyId: 101 },
    study: { id: 101, name: `MDD-301 & <friends>` },
    sites: [
      { id: 11, label: "Site <Paris> & co", treeLevel: 1, isVirtual: false, retired: false },
      { id: 12, label: "Site Lyon", treeLevel: 1, isVirtual: false, retired: false },
    ],
    users: [{ id: 7, email: "coordinator@demo.test", name: `Dr "Coordinator" & <team>` }],
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
        slug: "special",
        name: AWKWARD,
        instrumentType: "CLINRO",
        versionNumber: 1,
        definition: special,
      },
    ],
    consentVersions: [{ consentId: 41, title: "Main consent", version: 2, definition: consent }],
    submissions: (order: SubmissionOrder) => {
      expect(order).toBe("by-participant");
      return each(submissions);
    },
    consentSignings: () => each([signing]),
    ...overrides,
  };
}

async function exportText(source: ExportSource) {
  let text = "";
  for await (const chunk of writeOdmExport(source, { now: new Date("2026-11-27T12:00:00.000Z") }))
    text += chunk;
  return text;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  isArray: (name) =>
    [
      "MetaDataVersion",
      "ClinicalData",
      "FormData",
      "ItemGroupData",
      "ItemData",
      "User",
      "Location",
      "SignatureDef",
      "ItemDef",
      "CodeList",
      "CodeListItem",
      "MethodDef",
      "ItemGroupDef",
      "ItemRef",
      "ConditionDef",
      "RangeCheck",
    ].includes(name),
});

type Node = { [key: string]: unknown };
const parse = (xml: string) => parser.parse(xml) as { ODM: Node };
const list = (value: unknown) => (value ?? []) as Node[];

describe("ODM 1.3.2 export writer on hand-built sources", () => {
  it.skipIf(!odmSchemaCheckAvailable)(
    `writes a valid ODM document for every question type, scores and consent signatures ${odmSchemaTestNote}`,
    async () => {
      const xml = await exportText(handBuiltSource());
      expect(validateOdm(xml)).toEqual({ valid: true });
    },
  );

  it.skipIf(!odmSchemaCheckAvailable)(
    `writes a valid document for a study with no instruments, consents or data ${odmSchemaTestNote}`,
    async () => {
      const xml = await exportText(
        handBuiltSource({
          instrumentVersions: [],
          consentVersions: [],
          users: [],
          submissions: () => each([]),
          consentSignings: () => each([]),
        }),
      );
      expect(validateOdm(xml)).toEqual({ valid: true });
    },
  );

  it("declares one MetaDataVersion per definition version, with items, code lists, ranges and score methods", async () => {
    const odm = parse(await exportText(handBuiltSource())).ODM;
    expect(odm["FileType"]).toBe("Snapshot");
    expect(odm["ODMVersion"]).toBe("1.3.2");
    const study = odm["Study"] as Node;
    expect((study["GlobalVariables"] as Node)["StudyName"]).toBe("MDD-301 & <friends>");
    const versions = list(study["MetaDataVersion"]);
    expect(versions.map((version) => version["OID"])).toEqual([
      "MDV.kitchen-sink.V1",
      "MDV.special.V1",
      "MDV.CONSENT41.V2",
    ]);
    const sink = versions[0]!;
    const items = new Map(list(sink["ItemDef"]).map((item) => [item["Name"] as string, item]));
    // Matrix rows and select-multiple choices are items of their own; prompts collect nothing.
    expect([...items.keys()]).toEqual(
      expect.arrayContaining([
        "symptoms.headache",
        "symptoms.nausea",
        "symptoms.fatigue",
        "sleep_matrix.fall_asleep",
        "sleep_matrix.wake_night",
        "vitals.heart_rate",
        "wellbeing",
      ]),
    );
    expect(items.has("intro")).toBe(false);
    expect(items.has("leaflet")).toBe(false);
    expect(items.get("symptoms.headache")!["DataType"]).toBe("integer");
    expect(items.get("age")!["DataType"]).toBe("integer");
    expect(items.get("weight")!["DataType"]).toBe("float");
    expect(items.get("visit_date")!["DataType"]).toBe("date");
    expect(items.get("wake_time")!["DataType"]).toBe("time");
    expect(
      list(items.get("age")!["RangeCheck"]).map((check) => [check["Comparator"], check["CheckValue"]]),
    ).toEqual([
      ["GE", "0"],
      ["LE", "120"],
    ]);
    const colour = list(sink["CodeList"]).find((codeList) => codeList["Name"] === "color")!;
    expect(list(colour["CodeListItem"]).map((item) => item["CodedValue"])).toEqual(["red", "green", "blue"]);
    const method = list(sink["MethodDef"])[0]!;
    expect((method["FormalExpression"] as Node)["#text"]).toBe("sum({mood5}, {daily_energy}) + {pain}");
    // Show-if logic travels as a collection exception condition.
    expect(list(sink["ConditionDef"]).map((condition) => condition["Name"])).toContain("symptoms");
    const admin = odm["AdminData"] as Node;
    expect(list(admin["Location"]).map((location) => location["Name"])).toEqual([
      "Site <Paris> & co",
      "Site Lyon",
    ]);
    expect(list(admin["SignatureDef"]).map((definition) => definition["Meaning"])).toEqual(
      expect.arrayContaining(["Participant consent", "Consent obtained by", "Witnessed by"]),
    );
  });

  it("writes one SubjectData per participant and version, a FormData per submission with its AuditRecord and values", async () => {
    const odm = parse(await exportText(handBuiltSource())).ODM;
    const clinical = list(odm["ClinicalData"]);
    const subjects = clinical.map((data) => {
      const subject = data["SubjectData"] as Node;
      return [data["MetaDataVersionOID"], subject["SubjectKey"], (subject["SiteRef"] as Node)["LocationOID"]];
    });
    expect(subjects).toEqual([
      ["MDV.kitchen-sink.V1", "S-001 <A&B>", "LOC.11"],
      ["MDV.special.V1", "S-001 <A&B>", "LOC.11"],
      ["MDV.kitchen-sink.V1", "S-002", "LOC.12"],
      ["MDV.kitchen-sink.V1", "participant-3", "LOC.12"],
      ["MDV.CONSENT41.V2", "S-001 <A&B>", "LOC.11"],
    ]);
    const formOf = (index: number) =>
      list(((clinical[index]!["SubjectData"] as Node)["StudyEventData"] as Node)["FormData"])[0]!;
    const first = formOf(0);
    expect(first["FormRepeatKey"]).toBe("501");
    const audit = first["AuditRecord"] as Node;
    expect((audit["UserRef"] as Node)["UserOID"]).toBe("USR.7");
    expect((audit["LocationRef"] as Node)["LocationOID"]).toBe("LOC.11");
    expect(audit["DateTimeStamp"]).toBe("2026-11-20T09:00:05.000Z");
    expect(audit["SourceID"]).toContain("completed on the device at 2026-11-20T09:00:00.000Z");
    const values = new Map(
      list(first["ItemGroupData"]).flatMap((group) =>
        list(group["ItemData"]).map((item) => [item["ItemOID"], item["Value"]]),
      ),
    );
    expect(values.get("IT.kitchen-sink.color")).toBe("red");
    expect(values.get("IT.kitchen-sink.symptoms.headache")).toBe("1");
    expect(values.get("IT.kitchen-sink.symptoms.nausea")).toBe("0");
    expect(values.get("IT.kitchen-sink.sleep_matrix.fall_asleep")).toBe("often");
    expect(values.get("IT.kitchen-sink.vitals.heart_rate")).toBe("72");
    expect(values.get("IT.kitchen-sink.visit_date")).toBe("2026-11-19");
    expect(values.get("IT.kitchen-sink.wake_time")).toBe("07:15:00+01:00");
    expect(values.get("SC.kitchen-sink.wellbeing")).toBe("18");
    // An unanswered question has no ItemData.
    expect(values.has("IT.kitchen-sink.mood7")).toBe(false);

    const awkward = formOf(1);
    const awkwardValues = list(awkward["ItemGroupData"]).flatMap((group) => list(group["ItemData"]));
    expect(awkwardValues.map((item) => item["Value"])).toContain('I said "<no>" & left \uFFFD');
  });

  it("writes each consent signature as a Signature on its item, naming the signer and the meaning's SignatureDef", async () => {
    const odm = parse(await exportText(handBuiltSource())).ODM;
    const consentData = list(odm["ClinicalData"]).find(
      (data) => data["MetaDataVersionOID"] === "MDV.CONSENT41.V2",
    )!;
    const form = list(((consentData["SubjectData"] as Node)["StudyEventData"] as Node)["FormData"])[0]!;
    expect(form["FormRepeatKey"]).toBe("901");
    const signed = list(form["ItemGroupData"])
      .flatMap((group) => list(group["ItemData"]))
      .filter((item) => item["Signature"] !== undefined);
    const summary = signed.map((item) => {
      const signature = item["Signature"] as Node;
      return {
        item: item["ItemOID"],
        printedName: item["Value"],
        user: (signature["UserRef"] as Node)["UserOID"],
        definition: (signature["SignatureRef"] as Node)["SignatureOID"],
        at: signature["DateTimeStamp"],
      };
    });
    expect(summary).toEqual([
      {
        item: "IT.CONSENT41.participant_signature",
        printedName: "Alice O'Neil & co",
        user: "USR.SUBJ.1.participant",
        definition: "SD.participant.Participant_x0020_consent",
        at: "2026-11-20T09:59:00+01:00",
      },
      {
        item: "IT.CONSENT41.clinician_signature",
        printedName: "Dr Coordinator",
        user: "USR.7",
        definition: "SD.clinro.Consent_x0020_obtained_x0020_by",
        at: "2026-11-20T10:00:00+01:00",
      },
    ]);
    const admin = odm["AdminData"] as Node;
    const users = list(admin["User"]).map((user) => [user["OID"], user["DisplayName"]]);
    expect(users).toEqual([
      ["USR.7", `Dr "Coordinator" & <team>`],
      ["USR.SUBJ.1.participant", "Participant S-001 <A&B>"],
    ]);
    const meanings = new Map(
      list(admin["SignatureDef"]).map((definition) => [definition["OID"], definition["Meaning"]]),
    );
    expect(meanings.get("SD.participant.Participant_x0020_consent")).toBe("Participant consent");
  });

  it("streams: a participant's ClinicalData is written before the next participant's submissions are read", async () => {
    let read = 0;
    const counted = async function* () {
      for (const submission of submissions) {
        read += 1;
        yield await Promise.resolve(submission);
      }
    };
    const readWhenWritten: number[] = [];
    for await (const piece of writeOdmExport(handBuiltSource({ submissions: counted }))) {
      if (piece.startsWith("<ClinicalData")) readWhenWritten.push(read);
    }
    // Alice's two versions once her two submissions and the first of Bob's are read (the one that
    // ends her group), Bob's then, and Carol's at the end of the stream; then the consent.
    expect(readWhenWritten).toEqual([3, 3, 4, 4, 4]);
  });
});

/** Every ItemData of a FormData, by ItemOID. */
function itemData(form: Node): Map<string, Node> {
  return new Map(
    list(form["ItemGroupData"]).flatMap((group) =>
      list(group["ItemData"]).map((item) => [item["ItemOID"] as string, item] as const),
    ),
  );
}

/** Every FormData of the document with the SubjectData and ClinicalData it sits in. */
function formsOf(odm: Node) {
  return list(odm["ClinicalData"]).flatMap((clinical) => {
    const subject = clinical["SubjectData"] as Node;
    return list((subject["StudyEventData"] as Node)["FormData"]).map((form) => ({
      form,
      subjectKey: subject["SubjectKey"] as string,
      site: (subject["SiteRef"] as Node)["LocationOID"] as string,
      metaDataVersion: clinical["MetaDataVersionOID"] as string,
    }));
  });
}

describeOnEachDatabase("GET /control/studies/{studyId}/export?format=odm", (api) => {
  const ids = {
    kitchen: 0,
    hamd: 0,
    coordinator: 0,
    participant: 0,
    kitchenSubmission: 0,
    hamdSubmission: 0,
  };
  const subjectId = `ODM-${randomUUID().slice(0, 8)} <&>`;
  let xml = "";
  let contentType = "";

  beforeAll(async () => {
    const study = await coordinatorSubmittingForNewParticipant(api, {
      fname: "Oh",
      lname: "Deem",
      subjectId,
    });
    ids.kitchen = study.kitchenSink.id;
    ids.hamd = study.hamd.id;
    ids.coordinator = study.coordinatorId;
    ids.participant = study.participantId;
    const sink = study.kitchenSink.definition;
    ids.kitchenSubmission = await study.submit(study.kitchenSink, {
      color: [chosen(sink, "color", "red")],
      symptoms: [chosen(sink, "symptoms", "headache"), chosen(sink, "symptoms", "fatigue")],
      notes: [valueEntry(`Said "fine" & <left>`)],
      weight: [valueEntry(70.5)],
      age: [valueEntry(30)],
      mood5: [chosen(sink, "mood5", "l5_4")],
      pain: [valueEntry(5)],
      sleep_matrix: [
        { ...chosen(sink, "sleep_matrix", "often"), question: "fall_asleep" },
        { ...chosen(sink, "sleep_matrix", "never"), question: "wake_night" },
      ],
      daily_energy: [valueEntry(6)],
    });
    ids.hamdSubmission = await study.submit(
      study.hamd,
      everySelectOneAnswered(study.hamd.definition, () => "c2"),
    );

    const response = await api.request("GET", "/control/studies/101/export?format=odm&site_id=1011", {
      token: await api.signIn("coordinator@demo.test"),
    });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
    contentType = String(response.headers["content-type"]);
    xml = response.body;
  });

  it("answers ODM XML as a file of the study", () => {
    expect(contentType.startsWith(EXPORT_CONTENT_TYPES.odm)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it.skipIf(!odmSchemaCheckAvailable)(
    `answers a document that validates against the ODM 1.3.2 schema ${odmSchemaTestNote}`,
    () => {
      expect(validateOdm(xml)).toEqual({ valid: true });
    },
  );

  it.skipIf(!odmSchemaCheckAvailable)(
    `exports the whole study (every site, instrument and consent of the demo) as valid ODM ${odmSchemaTestNote}`,
    async () => {
      const response = await api.request("GET", "/control/studies/101/export?format=odm", {
        token: await api.signIn("admin@demo.test"),
      });
      expect(response.statusCode).toBe(200);
      const odm = parse(response.body).ODM;
      expect(list((odm["Study"] as Node)["MetaDataVersion"]).length).toBeGreaterThan(2);
      expect(formsOf(odm).map((entry) => entry.form["FormRepeatKey"])).toEqual(
        expect.arrayContaining([String(ids.kitchenSubmission), String(ids.hamdSubmission)]),
      );
      expect(validateOdm(response.body)).toEqual({ valid: true });
    },
  );

  it("writes each submission as a FormData of the participant, with its values, the server's scores and its AuditRecord", async () => {
    const odm = parse(xml).ODM;
    const ours = formsOf(odm).filter((entry) => entry.subjectKey === subjectId);
    expect(ours.map((entry) => [entry.form["FormOID"], entry.form["FormRepeatKey"], entry.site])).toEqual([
      ["F.kitchen-sink", String(ids.kitchenSubmission), "LOC.1011"],
      ["F.ham-d-17", String(ids.hamdSubmission), "LOC.1011"],
    ]);
    const stored = await api.db
      .select()
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.participantId, ids.participant))
      .orderBy(asc(instrumentSubmissions.id));
    for (const [index, row] of stored.entries()) {
      const audit = ours[index]!.form["AuditRecord"] as Node;
      expect((audit["UserRef"] as Node)["UserOID"]).toBe(`USR.${ids.coordinator}`);
      expect((audit["LocationRef"] as Node)["LocationOID"]).toBe("LOC.1011");
      expect(audit["DateTimeStamp"]).toBe(row.createdAt.toISOString());
    }
    const sink = itemData(ours[0]!.form);
    expect(sink.get("IT.kitchen-sink.color")!["Value"]).toBe("red");
    expect(sink.get("IT.kitchen-sink.symptoms.fatigue")!["Value"]).toBe("1");
    expect(sink.get("IT.kitchen-sink.symptoms.nausea")!["Value"]).toBe("0");
    expect(sink.get("IT.kitchen-sink.sleep_matrix.fall_asleep")!["Value"]).toBe("often");
    expect(sink.get("IT.kitchen-sink.notes")!["Value"]).toBe(`Said "fine" & <left>`);
    const serverScores = stored[0]!.scores as { id: string; final_value: number }[];
    expect(sink.get("SC.kitchen-sink.wellbeing")!["Value"]).toBe(
      String(serverScores.find((score) => score.id === "wellbeing")!.final_value),
    );
    const hamd = itemData(ours[1]!.form);
    expect(hamd.get("SC.ham-d-17.total")!["Value"]).toBe(
      String((stored[1]!.scores as { id: string; final_value: number }[])[0]!.final_value),
    );
    // The staff member who completed them is a User of AdminData.
    const usersWritten = list((odm["AdminData"] as Node)["User"]).map((user) => user["OID"]);
    expect(usersWritten).toContain(`USR.${ids.coordinator}`);
  });

  it("writes every consent signature of the site as a Signature with its signer, meaning and time", async () => {
    const signatures = await api.db
      .select()
      .from(consentSignatures)
      .innerJoin(consentSignings, eq(consentSignings.id, consentSignatures.signingId))
      .innerJoin(participants, eq(participants.id, consentSignings.participantId))
      .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)))
      .orderBy(asc(consentSignatures.id));
    expect(signatures.length).toBeGreaterThan(0);
    const odm = parse(xml).ODM;
    const meanings = new Map(
      list((odm["AdminData"] as Node)["SignatureDef"]).map((definition) => [
        definition["OID"],
        definition["Meaning"],
      ]),
    );
    const written = formsOf(odm)
      .filter((entry) => entry.metaDataVersion.startsWith("MDV.CONSENT"))
      .flatMap((entry) =>
        [...itemData(entry.form).values()]
          .filter((item) => item["Signature"] !== undefined)
          .map((item) => {
            const signature = item["Signature"] as Node;
            return {
              signing: Number(entry.form["FormRepeatKey"]),
              printedName: item["Value"],
              user: (signature["UserRef"] as Node)["UserOID"],
              meaning: meanings.get((signature["SignatureRef"] as Node)["SignatureOID"]),
              at: signature["DateTimeStamp"],
            };
          }),
      );
    expect(written).toHaveLength(signatures.length);
    for (const { consent_signatures: signature } of signatures) {
      expect(written).toContainEqual({
        signing: signature.signingId,
        printedName: signature.printedName,
        user:
          signature.signerUserId === null
            ? `USR.SUBJ.${signature.participantId}.${signature.role}`
            : `USR.${signature.signerUserId}`,
        meaning: signature.meaning,
        at: expect.any(String),
      });
    }
  });
});
