import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { submissionRejected, submissionResponse } from "../../core/contracts/instrument-schemas.ts";
import { formsListResponse, instancesListResponse } from "../../core/contracts/instrument-lists.ts";
import { photoFileName, valueEntry } from "../../core/survey-engine/answer-values.ts";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import type { SubmissionPayload } from "../../core/contracts/survey-submission.ts";
import {
  instrumentInstances,
  instrumentSubmissions,
  instruments,
  participants,
  users,
} from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { testImage } from "../support/test-images.ts";
import { chosen, definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** HAM-D item scores of the known submission: items 1 to 17. Their total is 18. */
const HAMD_SCORES = [2, 1, 0, 1, 2, 0, 3, 1, 0, 2, 1, 1, 2, 0, 1, 1, 0];
const HAMD_TOTAL = 18;

const submissionUrl = (participantId: number | string, instrumentId: number | string) =>
  `/control/clinro/participant/${participantId}/instruments/${instrumentId}/submission`;

describeOnEachDatabase("POST .../instruments/{instrumentId}/submission", (api) => {
  const ids = {
    hamd: 0,
    cgis: 0,
    adverse: 0,
    kitchen: 0,
    hamd102: 0,
    coordinator: 0,
    staff1: 0,
    staff2: 0,
  };
  /** Participants of this file: study 101, site 1011 unless said otherwise. */
  const people = { scheduled: 0, unscheduled: 0, doneElsewhere: 0, refused: 0, photos: 0, otherStudy: 0 };
  const instances = { expired: 0, open: 0, future: 0, doneElsewhere: 0, refusedOpen: 0 };
  const definitions: Record<"hamd" | "adverse" | "kitchen" | "cgis", SurveyDefinition | undefined> = {
    hamd: undefined,
    adverse: undefined,
    kitchen: undefined,
    cgis: undefined,
  };
  let tokens: Promise<{ coordinator: string; staff1: string; staff3: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      coordinator: await api.signIn("coordinator@demo.test"),
      staff1: await api.signIn("staff1@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
    }))());

  const coordinator = () => ({ id: ids.coordinator, username: "coordinator@demo.test" });
  const hamdAnswers = (scores = HAMD_SCORES) =>
    Object.fromEntries(
      scores.map((score, index) => {
        const id = `hamd_${String(index + 1).padStart(2, "0")}`;
        return [id, [chosen(definitions.hamd!, id, `c${score}`)]];
      }),
    );
  /** A valid HAM-D 17 of the known scores, by the coordinator, with a fresh client instance id. */
  const hamdPayload = () =>
    payloadFor(definitions.hamd!, hamdAnswers(), {
      user: coordinator(),
      instrumentId: ids.hamd,
      instanceId: randomUUID(),
    });
  const submit = async (
    participantId: number,
    instrumentId: number,
    body: unknown,
    { token, key = randomUUID() }: { token?: string; key?: string } = {},
  ) =>
    api.request("POST", submissionUrl(participantId, instrumentId), {
      token: token ?? (await signedIn()).coordinator,
      body: body as object,
      headers: { "idempotency-key": key, version: "010" },
    });
  const countSubmissions = async () => {
    const [row] = await api.db.select({ count: sql<number>`count(*)::int` }).from(instrumentSubmissions);
    return row!.count;
  };
  const instanceRow = async (id: number) =>
    (await api.db.select().from(instrumentInstances).where(eq(instrumentInstances.id, id)))[0]!;

  beforeAll(async () => {
    const instrumentId = async (studyId: number, slug: string) =>
      (
        await api.db
          .select({ id: instruments.id })
          .from(instruments)
          .where(and(eq(instruments.studyId, studyId), eq(instruments.slug, slug)))
      )[0]!.id;
    ids.hamd = await instrumentId(101, "ham-d-17");
    ids.cgis = await instrumentId(101, "cgi-s");
    ids.adverse = await instrumentId(101, "adverse-events-review");
    ids.kitchen = await instrumentId(101, "kitchen-sink");
    ids.hamd102 = await instrumentId(102, "ham-d-17");
    const userId = async (username: string) =>
      (await api.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0]!.id;
    ids.coordinator = await userId("coordinator@demo.test");
    ids.staff1 = await userId("staff1@demo.test");
    ids.staff2 = await userId("staff2@demo.test");

    const participant = async (fname: string, studyId = 101, siteId = 1011) =>
      (
        await api.db
          .insert(participants)
          .values({ studyId, siteId, fname, lname: "Submitter" })
          .returning({ id: participants.id })
      )[0]!.id;
    people.scheduled = await participant("Scheduled");
    people.unscheduled = await participant("Unscheduled");
    people.doneElsewhere = await participant("Elsewhere");
    people.refused = await participant("Refused");
    people.photos = await participant("Photos");
    people.otherStudy = await participant("Remote", 102, 1021);

    const instance = async (values: typeof instrumentInstances.$inferInsert) =>
      (await api.db.insert(instrumentInstances).values(values).returning({ id: instrumentInstances.id }))[0]!
        .id;
    const now = Date.now();
    instances.expired = await instance({
      instrumentId: ids.hamd,
      participantId: people.scheduled,
      startDate: new Date(now - 20 * DAY_MS),
      expiration: new Date(now - 13 * DAY_MS),
    });
    instances.open = await instance({
      instrumentId: ids.hamd,
      participantId: people.scheduled,
      startDate: new Date(now - DAY_MS),
      expiration: new Date(now + 6 * DAY_MS),
    });
    instances.future = await instance({
      instrumentId: ids.hamd,
      participantId: people.scheduled,
      startDate: new Date(now + 3 * DAY_MS),
    });
    instances.doneElsewhere = await instance({
      instrumentId: ids.hamd,
      participantId: people.doneElsewhere,
      startDate: new Date(now - DAY_MS),
      completion: new Date("2026-01-02T03:04:05.000Z"),
      whoCompleted: ids.staff2,
    });
    instances.refusedOpen = await instance({
      instrumentId: ids.hamd,
      participantId: people.refused,
      startDate: new Date(now - DAY_MS),
    });

    const { coordinator: token } = await signedIn();
    const load = async (slug: string, id: number) =>
      parseDefinitionOrThrow(
        definitionJsonOf(
          await api.request("GET", `/control/admin/studies/101/instruments/${id}/${slug}`, { token }),
        ),
      );
    definitions.hamd = await load("ham-d-17", ids.hamd);
    definitions.cgis = await load("cgi-s", ids.cgis);
    definitions.adverse = await load("adverse-events-review", ids.adverse);
    definitions.kitchen = await load("kitchen-sink", ids.kitchen);
  });

  it("stores a valid HAM-D 17 with the server's total and completes the oldest open instance", async () => {
    const completion = new Date(Date.now() - 60_000);
    const payload = payloadFor(definitions.hamd!, hamdAnswers(), {
      user: coordinator(),
      instrumentId: ids.hamd,
      instanceId: "client-made-1",
      completion,
    });
    const response = await submit(people.scheduled, ids.hamd, [payload]);
    expect(response.statusCode).toBe(201);
    const body = submissionResponse.parse(response.json());
    expect(body).toMatchObject({
      instance_id: "client-made-1",
      instrument_instance_id: instances.open,
      already_completed: false,
    });
    expect(body.scores).toEqual([expect.objectContaining({ id: "total", final_value: HAMD_TOTAL })]);

    const [stored] = await api.db
      .select()
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.id, body.id));
    expect(stored).toMatchObject({
      instrumentId: ids.hamd,
      participantId: people.scheduled,
      instrumentInstanceId: instances.open,
      clientInstanceId: "client-made-1",
      versionNumber: 1,
      submittedBy: ids.coordinator,
      completedAt: completion,
    });
    expect(stored!.scores).toEqual(body.scores);
    expect(await instanceRow(instances.open)).toMatchObject({ completion, whoCompleted: ids.coordinator });
    // The expired and the future deliveries are not this one.
    expect((await instanceRow(instances.expired)).completion).toBeNull();
    expect((await instanceRow(instances.future)).completion).toBeNull();

    const { staff1 } = await signedIn();
    const forms = formsListResponse.parse(
      (
        await api.request(
          "GET",
          `/control/clinro/participants/${people.scheduled}/instruments?study_id=101`,
          {
            token: staff1,
          },
        )
      ).json(),
    );
    expect(forms.instruments.find((item) => item.instance_id === instances.open)).toMatchObject({
      completed: completion.toISOString(),
      completedBy: "Carmen Ortiz",
    });
    const listed = instancesListResponse.parse(
      (
        await api.request(
          "GET",
          `/control/participants/${people.scheduled}/instruments/instances?study_id=101`,
          {
            token: staff1,
          },
        )
      ).json(),
    );
    const hamd = listed.instruments.find((item) => item.instrument_id === ids.hamd)!;
    expect(hamd.instances.find((item) => item.instance_id === instances.open)).toMatchObject({
      completion: completion.toISOString(),
      who_completed: ids.coordinator,
      who_completed_name: "Carmen Ortiz",
    });
  });

  it("takes the completer from the token, never from the body", async () => {
    const payload = {
      ...hamdPayload(),
      completed_by: ids.staff1,
      identity: "staff1@demo.test",
    };
    const response = await submit(people.unscheduled, ids.hamd, [payload]);
    expect(response.statusCode).toBe(201);
    const body = submissionResponse.parse(response.json());
    const [stored] = await api.db
      .select()
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.id, body.id));
    expect(stored!.submittedBy).toBe(ids.coordinator);
    expect(stored!.payload).toMatchObject({
      completed_by: ids.coordinator,
      identity: "coordinator@demo.test",
    });
    expect((await instanceRow(body.instrument_instance_id)).whoCompleted).toBe(ids.coordinator);
  });

  it("makes a completed instance when the participant has no open one", async () => {
    const completion = new Date(Date.now() - 5 * 60_000);
    const payload = payloadFor(definitions.hamd!, hamdAnswers(), {
      user: coordinator(),
      instrumentId: ids.hamd,
      completion,
    });
    const response = await submit(people.unscheduled, ids.hamd, [payload]);
    expect(response.statusCode).toBe(201);
    const body = submissionResponse.parse(response.json());
    expect(await instanceRow(body.instrument_instance_id)).toMatchObject({
      participantId: people.unscheduled,
      instrumentId: ids.hamd,
      completion,
      whoCompleted: ids.coordinator,
    });
  });

  it("stores one row for the same Idempotency-Key sent twice, and answers the second from the record", async () => {
    const key = randomUUID();
    const payload = hamdPayload();
    const first = await submit(people.unscheduled, ids.hamd, [payload], { key });
    const second = await submit(people.unscheduled, ids.hamd, [payload], { key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBe("false");
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
    const rows = await api.db
      .select({ id: instrumentSubmissions.id })
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.clientInstanceId, String(payload.instance_id)));
    expect(rows).toHaveLength(1);
  });

  it("stores the work done for an instance completed elsewhere, and leaves that instance as it was", async () => {
    const before = await instanceRow(instances.doneElsewhere);
    const payload = payloadFor(definitions.hamd!, hamdAnswers(), {
      user: coordinator(),
      instrumentId: ids.hamd,
      instrumentInstanceId: instances.doneElsewhere,
      instanceId: instances.doneElsewhere,
    });
    const response = await submit(people.doneElsewhere, ids.hamd, [payload]);
    expect(response.statusCode).toBe(201);
    expect(submissionResponse.parse(response.json())).toMatchObject({
      instance_id: instances.doneElsewhere,
      instrument_instance_id: instances.doneElsewhere,
      already_completed: true,
    });
    expect(await instanceRow(instances.doneElsewhere)).toEqual(before);
  });

  it("accepts bodies above the server's default 1 MB limit (scribbles)", async () => {
    const payload = { ...hamdPayload(), survey_copy_padding: "x".repeat(1_500_000) };
    const response = await submit(people.unscheduled, ids.hamd, [payload]);
    expect(response.statusCode).toBe(201);
  });

  it("accepts photos this participant uploaded, checks every question type of the kitchen sink, and scores it", async () => {
    const fileName = photoFileName(
      { studyId: 101, participantId: people.photos, instrumentId: ids.kitchen },
      "photos",
      "stamp-1",
    );
    const form = new FormData();
    form.set(
      "upload_file",
      new Blob([Buffer.from(await testImage("jpeg"))], { type: "image/jpeg" }),
      fileName,
    );
    form.set("file_name", fileName);
    form.set("platform", "clinro");
    form.set("module_name", "clinro");
    form.set("participant_id", String(people.photos));
    const multipart = new Request("http://localhost/", { method: "POST", body: form });
    const upload = await api.request("POST", "/control/file/upload", {
      token: (await signedIn()).coordinator,
      body: Buffer.from(await multipart.arrayBuffer()),
      headers: { "content-type": multipart.headers.get("content-type")!, "idempotency-key": randomUUID() },
    });
    expect(upload.statusCode).toBe(200);

    const sink = definitions.kitchen!;
    const answers: Record<string, AnswerEntry[]> = {
      color: [chosen(sink, "color", "red")],
      symptoms: [chosen(sink, "symptoms", "headache"), chosen(sink, "symptoms", "fatigue")],
      notes: [valueEntry("Slept badly")],
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
      photos: [valueEntry(fileName)],
      daily_feeling: [chosen(sink, "daily_feeling", "good")],
      daily_energy: [valueEntry(6)],
      daily_comment: [valueEntry("Fine")],
    };
    const payload = payloadFor(sink, answers, { user: coordinator(), instrumentId: ids.kitchen });
    expect(payload.attachments).toEqual([fileName]);
    const response = await submit(people.photos, ids.kitchen, [payload]);
    expect(response.json()).toMatchObject({ scores: [{ id: "wellbeing", final_value: 4 + 6 + 5 }] });
    expect(response.statusCode).toBe(201);
  });

  // ------------------------------------------------------------------------------------------
  // refusals: nothing stored, the open instance left open

  const expectNothingStored = async (response: Awaited<ReturnType<typeof submit>>, before: number) => {
    expect(await countSubmissions()).toBe(before);
    expect((await instanceRow(instances.refusedOpen)).completion).toBeNull();
    return response;
  };

  const invalid: [string, () => { instrument: "hamd" | "adverse"; payload: SubmissionPayload }, RegExp][] = [
    [
      "an unknown choice",
      () => {
        const payload = hamdPayload();
        const record = payload.answers.find((candidate) => candidate.id === "hamd_03")!;
        record.answer = [{ label: "Invented", value: "c9", choice_id: "c9", score_value: 9 }];
        return { instrument: "hamd", payload };
      },
      /hamd_03.*"c9" is not a choice/,
    ],
    [
      "a text longer than 140 characters",
      () => {
        const adverse = definitions.adverse!;
        const payload = payloadFor(
          adverse,
          {
            new_event: [chosen(adverse, "new_event", "yes")],
            event_description: [valueEntry("x".repeat(141))],
            event_severity: [chosen(adverse, "event_severity", "mild")],
            event_serious: [chosen(adverse, "event_serious", "no")],
          },
          { user: coordinator(), instrumentId: ids.adverse },
        );
        return { instrument: "adverse", payload };
      },
      /event_description.*141 characters/,
    ],
  ];

  it.each(invalid)("422 naming the question for %s; nothing is stored", async (_case, build, message) => {
    const before = await countSubmissions();
    const { instrument, payload } = build();
    const response = await submit(people.refused, ids[instrument], [payload]);
    expect(response.statusCode).toBe(422);
    const body = submissionRejected.parse(response.json());
    expect(body.code).toBe("submission_invalid");
    expect(body.message).toMatch(message);
    expect(body.problems.length).toBeGreaterThan(0);
    await expectNothingStored(response, before);
  });

  // Answers that disagree with the show-if logic are bad input: 400 (tests/api/show-if-submission.test.ts
  // covers other people's forms).
  const againstShowIf: [
    string,
    () => { instrument: "hamd" | "adverse"; payload: SubmissionPayload },
    RegExp,
  ][] = [
    [
      "a required question left out",
      () => {
        const payload = hamdPayload();
        payload.answers = payload.answers.filter((record) => record.id !== "hamd_05");
        return { instrument: "hamd", payload };
      },
      /hamd_05.*required/,
    ],
    [
      "an answer to a question its show-if logic hides",
      () => {
        const adverse = definitions.adverse!;
        const payload = payloadFor(
          adverse,
          {
            new_event: [chosen(adverse, "new_event", "no")],
            event_description: [valueEntry("Headache")],
          },
          { user: coordinator(), instrumentId: ids.adverse },
        );
        return { instrument: "adverse", payload };
      },
      /event_description.*hides it/,
    ],
  ];

  it.each(againstShowIf)(
    "400 naming the question for %s; nothing is stored",
    async (_case, build, message) => {
      const before = await countSubmissions();
      const { instrument, payload } = build();
      const response = await submit(people.refused, ids[instrument], [payload]);
      expect(response.statusCode).toBe(400);
      const body = submissionRejected.parse(response.json());
      expect(body.code).toBe("show_if_mismatch");
      expect(body.message).toMatch(message);
      expect(body.problems.length).toBeGreaterThan(0);
      await expectNothingStored(response, before);
    },
  );

  it("422 'This instrument version is unknown' for a version_number the instrument never had", async () => {
    const before = await countSubmissions();
    const response = await submit(people.refused, ids.hamd, [{ ...hamdPayload(), version_number: 99 }]);
    expect(response.statusCode).toBe(422);
    const body = submissionRejected.parse(response.json());
    expect(body).toMatchObject({ code: "unknown_version", problems: [{ field: "version_number" }] });
    expect(body.message).toMatch(/^This instrument version is unknown/);
    await expectNothingStored(response, before);
  });

  it("422 for an attachment this participant did not upload", async () => {
    const before = await countSubmissions();
    const payload = { ...hamdPayload(), attachments: ["101_1_1_photos_never.jpeg"] };
    const response = await submit(people.refused, ids.hamd, [payload]);
    expect(response.statusCode).toBe(422);
    expect(submissionRejected.parse(response.json())).toMatchObject({
      code: "attachment_missing",
      problems: [{ field: "attachments[0]" }],
    });
    await expectNothingStored(response, before);
  });

  it("422 for an instrument_instance_id of another participant", async () => {
    const before = await countSubmissions();
    const payload = { ...hamdPayload(), instrument_instance_id: instances.future };
    const response = await submit(people.refused, ids.hamd, [payload]);
    expect(response.statusCode).toBe(422);
    expect(submissionRejected.parse(response.json())).toMatchObject({
      code: "instance_unknown",
      problems: [{ field: "instrument_instance_id" }],
    });
    await expectNothingStored(response, before);
  });

  it("422 when the payload names another instrument than the url", async () => {
    const before = await countSubmissions();
    const payload = { ...hamdPayload(), instrument_id: ids.cgis };
    const response = await submit(people.refused, ids.hamd, [payload]);
    expect(response.statusCode).toBe(422);
    expect(submissionRejected.parse(response.json()).problems).toContainEqual(
      expect.objectContaining({ field: "instrument_id" }),
    );
    await expectNothingStored(response, before);
  });

  it("403 for staff1 (level 1) submitting CGI-S, which coordinators alone may administer", async () => {
    const before = await countSubmissions();
    const { staff1 } = await signedIn();
    const cgis = definitions.cgis!;
    const payload = payloadFor(
      cgis,
      { cgi_s: [chosen(cgis, "cgi_s", "c4")] },
      {
        user: { id: ids.staff1, username: "staff1@demo.test" },
        instrumentId: ids.cgis,
      },
    );
    const response = await submit(people.refused, ids.cgis, [payload], { token: staff1 });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json())).toMatchObject({
      code: "instrument_forbidden",
      message: "It looks like you don't have permission to administer CGI-S",
    });
    await expectNothingStored(response, before);
    // The coordinator may.
    const allowed = await submit(people.refused, ids.cgis, [{ ...payload, completed_by: ids.coordinator }]);
    expect(allowed.statusCode).toBe(201);
    expect(submissionResponse.parse(allowed.json()).scores).toEqual([
      expect.objectContaining({ id: "severity", final_value: 4 }),
    ]);
  });

  it("403 for a participant the user may not see", async () => {
    const { staff3 } = await signedIn();
    const response = await submit(people.otherStudy, ids.hamd102, [hamdPayload()], {
      token: staff3,
    });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json()).code).toBe("participant_forbidden");
  });

  it("404 for an instrument of another study than the participant's", async () => {
    const response = await submit(people.refused, ids.hamd102, [hamdPayload()]);
    expect(response.statusCode).toBe(404);
    expect(errorBody.parse(response.json()).code).toBe("instrument_not_found");
  });

  it.each([
    ["an empty array", []],
    ["two submissions", "two"],
    ["an object instead of an array", "object"],
  ] as const)("400 naming the rule for %s", async (_case, shape) => {
    const one = hamdPayload();
    const body = shape === "two" ? [one, one] : shape === "object" ? one : [];
    const response = await submit(people.refused, ids.hamd, body);
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).code).toBe("invalid_request");
  });

  it("400 naming the field for a payload without completion", async () => {
    const { completion: _completion, ...rest } = hamdPayload();
    const response = await submit(people.refused, ids.hamd, [rest]);
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain("0.completion");
  });

  it("401 without a token", async () => {
    const response = await api.request("POST", submissionUrl(people.refused, ids.hamd), {
      body: [hamdPayload()],
    });
    expect(response.statusCode).toBe(401);
  });
});
