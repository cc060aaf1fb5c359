import { describe, expect, it } from "vitest";
import { submissionRequest } from "../contracts/instrument-schemas.ts";
import { buildSubmission, stampSurveyCopy, type SubmissionInput } from "./submission.ts";
import { submissionPayload } from "../contracts/survey-submission.ts";
import {
  everyTypeAnswers,
  everyTypeDefinitionJson,
  PHOTO_NAME,
  recordsFor,
  validDefinition,
} from "./test-fixtures.ts";

const definition = validDefinition(everyTypeDefinitionJson);
const records = recordsFor(definition, everyTypeAnswers(definition));

const input: SubmissionInput = {
  definition,
  records,
  user: { id: 31, username: "coordinator@demo.test" },
  startTime: new Date("2026-11-22T09:40:00.000Z"),
  completion: new Date("2026-11-22T10:05:00.000Z"),
  portalVersion: "3.75.1",
  instrumentId: 5,
  browserInfo: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)",
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the submission payload", () => {
  it("is the survey (without its url) plus exactly the listed fields", () => {
    const payload = buildSubmission({ ...input, instrumentInstanceId: 88 });
    const surveyKeys = ["id", "type", "title", "version", "order", "questions", "siblings", "scores"];
    const listed = [
      "answers",
      "scores",
      "completed_by",
      "completion",
      "identity",
      "state",
      "start_time",
      "version",
      "version_number",
      "attachments",
      "instrument_id",
      "id",
      "browser_info",
      "instance_id",
      "instrument_instance_id",
    ];
    expect(Object.keys(payload).sort()).toEqual([...new Set([...surveyKeys, ...listed])].sort());
    expect(payload).not.toHaveProperty("url");
  });

  it("holds who completed it, when, and which versions", () => {
    const payload = buildSubmission(input);
    expect(payload).toMatchObject({
      id: "every-type",
      completed_by: 31,
      identity: "coordinator@demo.test",
      completion: "2026-11-22T10:05:00.000Z",
      start_time: "2026-11-22T09:40:00.000Z",
      state: "COMPLETE",
      version: "3.75.1",
      version_number: 3,
      instrument_id: 5,
      browser_info: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)",
    });
    expect(payload).not.toHaveProperty("instrument_instance_id");
  });

  it("holds the records as given, in the order given", () => {
    const payload = buildSubmission(input);
    expect(payload.answers).toEqual(records);
    expect(payload.answers.map((record) => record.id)).toEqual(records.map((record) => record.id));
  });

  it("holds the scores computed from the records, with final_value", () => {
    expect(buildSubmission(input).scores.map((score) => [score.id, score.final_value])).toEqual([
      ["total", 11],
      ["half", 3.67],
    ]);
  });

  it("lists the photo file names of image capture answers as attachments", () => {
    expect(buildSubmission(input).attachments).toEqual([PHOTO_NAME]);
  });

  it("makes up a new instance id when none is given, and keeps a given one", () => {
    const first = buildSubmission(input).instance_id;
    const second = buildSubmission(input).instance_id;
    expect(first).toMatch(UUID);
    expect(first).not.toBe(second);
    expect(buildSubmission({ ...input, instanceId: 1234 }).instance_id).toBe(1234);
  });

  it("takes the version number from the input over the definition", () => {
    expect(buildSubmission({ ...input, versionNumber: 7 }).version_number).toBe(7);
  });

  it("refuses to build a payload when the definition has no version number", () => {
    const { version: _version, ...unversioned } = definition;
    expect(() => buildSubmission({ ...input, definition: unversioned })).toThrow("no version number");
  });

  it("passes its own schema, and the submission call takes it as an array of one", () => {
    const payload = buildSubmission({ ...input, instrumentInstanceId: 88 });
    expect(submissionPayload.safeParse(JSON.parse(JSON.stringify(payload))).success).toBe(true);
    expect(submissionRequest.safeParse([payload]).success).toBe(true);
    expect(submissionRequest.safeParse([payload, payload]).success).toBe(false);
    expect(submissionRequest.safeParse(payload).success).toBe(false);
  });

  it.each([
    ["without completed_by", { completed_by: undefined }],
    ["stamped INCOMPLETE", { state: "INCOMPLETE" }],
    ["with a url", { url: "/studies/7/instruments/5/every-type" }],
    ["with a completion that is not a timestamp", { completion: "yesterday" }],
    ["with a version number that is not a whole number", { version_number: 2.5 }],
    ["with the definition's numeric version in place of the portal version", { version: 3 }],
    ["with a record in an unknown state", { answers: [{ ...records[1], state: "DONE" }] }],
    ["with a record without its answer list", { answers: [{ ...records[1], answer: undefined }] }],
    ["with an answer entry without a label", { answers: [{ ...records[1], answer: [{ value: "red" }] }] }],
    ["with a score without final_value", { scores: [{ id: "total", name: "Total", formula: "1" }] }],
  ])("is refused %s", (_name, change) => {
    const payload = { ...buildSubmission(input), ...change };
    expect(submissionPayload.safeParse(payload).success).toBe(false);
  });
});

describe("the survey copy", () => {
  it("is stamped with its state and start time, and loses its url", () => {
    const copy = stampSurveyCopy(definition, "INCOMPLETE", new Date("2026-11-22T09:40:00.000Z"));
    expect(copy.state).toBe("INCOMPLETE");
    expect(copy.start_time).toBe("2026-11-22T09:40:00.000Z");
    expect(copy).not.toHaveProperty("url");
    expect(stampSurveyCopy(definition, "COMPLETE", "2026-11-22T09:40:00.000Z").state).toBe("COMPLETE");
  });

  it("is a copy: changing it leaves the definition alone", () => {
    const copy = stampSurveyCopy(definition, "INCOMPLETE", new Date());
    copy.questions.colour!.label = "Changed";
    expect(definition.questions.colour?.label).toBe("Colour");
    expect(definition.url).toBe("/studies/7/instruments/5/every-type");
  });
});
