/**
 * The server evaluates show-if again on a submitted instrument (spec 02 §4): an answer to a
 * question the logic hides, or a required question it shows left unanswered, is refused with a
 * 400 naming each such question, and nothing is stored. The instruments are other people's
 * forms, LHC-Forms' enableWhen test questionnaires (tests/fixtures/third-party/lforms), imported with
 * `clinro instrument import --from fhir` into a site's own study set up from a study file.
 * On PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { submissionRejected, submissionResponse } from "../../core/contracts/instrument-schemas.ts";
import type { AnswerEntry } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { valueEntry } from "../../core/survey-engine/answer-values.ts";
import { instrumentSubmissions, sitePermissions, studyPermissions } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { importedInstrument, importInstrument, runClinro, temporaryFolder } from "../support/cli-runs.ts";
import { chosen, definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";
import { DEMO_COORDINATOR, newParticipant, userIdOf } from "../support/submitted-study.ts";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/third-party/lforms");
const NESTED = path.join(fixtures, "q-with-nested-enableWhen.json");
const ENABLE_WHEN_TEST = path.join(fixtures, "enableWhen-test.R4.json");

/** A site's own study, as its file describes it: one site, no instruments of its own yet. */
const STUDY_ID = 451;
const SITE_ID = 4511;
const STUDY_FILE = `format: 1
study:
  id: ${STUDY_ID}
  name: Riverside Skip Logic Study
sites:
  - id: ${SITE_ID}
    label: Riverside Clinic
`;

const inWorkDir = temporaryFolder("clinro-show-if-");

describeOnEachDatabase("show-if evaluated again on a submitted instrument", (api) => {
  const ids = { nested: 0, nestedRequired: 0, enableWhen: 0, coordinator: 0, participant: 0 };
  const definitions: Record<"nested" | "nestedRequired" | "enableWhen", SurveyDefinition | undefined> = {
    nested: undefined,
    nestedRequired: undefined,
    enableWhen: undefined,
  };
  let token = "";

  const importFhir = async (file: string, slug: string) => {
    const result = await importInstrument(api, {
      from: "fhir",
      file,
      studyId: STUDY_ID,
      options: ["--slug", slug],
    });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const instrument = await importedInstrument(api, STUDY_ID, slug);
    const served = await api.request(
      "GET",
      `/control/admin/studies/${STUDY_ID}/instruments/${instrument.id}/${slug}`,
      {
        token,
      },
    );
    expect(served.statusCode, served.body).toBe(200);
    return { id: instrument.id, definition: parseDefinitionOrThrow(definitionJsonOf(served)) };
  };

  beforeAll(async () => {
    const studyFile = inWorkDir("study.yaml");
    await writeFile(studyFile, STUDY_FILE);
    const applied = await runClinro(api, ["study", "apply", studyFile]);
    expect(applied.err).toBe("");
    expect(applied.code).toBe(0);
    // The site's coordinator: a Clinical Coordinator (16) of the study, at its site.
    ids.coordinator = await userIdOf(api, DEMO_COORDINATOR);
    await api.db.insert(studyPermissions).values({ userId: ids.coordinator, studyId: STUDY_ID, role: "16" });
    await api.db.insert(sitePermissions).values({ userId: ids.coordinator, siteId: SITE_ID });
    ids.participant = await newParticipant(api, {
      studyId: STUDY_ID,
      siteId: SITE_ID,
      fname: "Skip",
      lname: "Logic",
    });
    token = await api.signIn(DEMO_COORDINATOR);

    const nested = await importFhir(NESTED, "nested-enable-when");
    ids.nested = nested.id;
    definitions.nested = nested.definition;
    // The same questionnaire with its dependent text required, to see a shown required question
    // left unanswered refused.
    const required = JSON.parse(await readFile(NESTED, "utf8")) as {
      item: { linkId: string; item?: { linkId: string; required?: boolean }[] }[];
    };
    required.item.find((item) => item.linkId === "g1")!.item!.find((item) => item.linkId === "d1")!.required =
      true;
    const requiredFile = inWorkDir("nested-required.json");
    await writeFile(requiredFile, JSON.stringify(required));
    const nestedRequired = await importFhir(requiredFile, "nested-enable-when-required");
    ids.nestedRequired = nestedRequired.id;
    definitions.nestedRequired = nestedRequired.definition;
    const enableWhen = await importFhir(ENABLE_WHEN_TEST, "enable-when-test");
    ids.enableWhen = enableWhen.id;
    definitions.enableWhen = enableWhen.definition;
  });

  type Which = keyof typeof definitions;
  const submit = (which: Which, answers: Record<string, AnswerEntry[]>) => {
    const payload = payloadFor(definitions[which]!, answers, {
      user: { id: ids.coordinator, username: DEMO_COORDINATOR },
      instrumentId: ids[which],
      instanceId: randomUUID(),
    });
    return api.request(
      "POST",
      `/control/clinro/participant/${ids.participant}/instruments/${ids[which]}/submission`,
      { token, body: [payload], headers: { "idempotency-key": randomUUID(), version: "010" } },
    );
  };
  const storedCount = async () => {
    const [row] = await api.db
      .select({ count: sql<number>`count(*)::int` })
      .from(instrumentSubmissions)
      .where(eq(instrumentSubmissions.participantId, ids.participant));
    return row!.count;
  };
  const choice = (which: Which, questionId: string, choiceId: string) => [
    chosen(definitions[which]!, questionId, choiceId),
  ];
  const text = (value: string) => [valueEntry(value)];

  /** Expects a 400 naming exactly these questions as against the logic, and nothing stored. */
  const expectRefused = async (
    response: Awaited<ReturnType<typeof submit>>,
    named: Record<string, RegExp>,
    before: number,
  ) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = submissionRejected.parse(response.json());
    expect(body.code).toBe("show_if_mismatch");
    expect(Object.fromEntries(body.problems.map((problem) => [problem.question, problem.message]))).toEqual(
      Object.fromEntries(Object.entries(named).map(([id, message]) => [id, expect.stringMatching(message)])),
    );
    for (const id of Object.keys(named)) expect(body.message).toContain(`"${id}"`);
    expect(await storedCount()).toBe(before);
  };

  it("refuses the text of the nested dependent once the inner controller hides it (400 naming d1)", async () => {
    const before = await storedCount();
    const response = await submit("nested", {
      p1: choice("nested", "p1", "YES"),
      c1: choice("nested", "c1", "A"),
      d1: text("typed before A was chosen"),
    });
    await expectRefused(response, { d1: /hides it/ }, before);
  });

  it("refuses every answer of the group its parent hides, and takes the group's answers when shown", async () => {
    const before = await storedCount();
    const hidden = await submit("nested", {
      p1: choice("nested", "p1", "NO"),
      c1: choice("nested", "c1", "B"),
      d1: text("nothing to say"),
    });
    await expectRefused(hidden, { c1: /hides it/, d1: /hides it/ }, before);

    const shown = await submit("nested", {
      p1: choice("nested", "p1", "YES"),
      c1: choice("nested", "c1", "B"),
      d1: text("shown while the inner controller is not A"),
    });
    expect(shown.statusCode, shown.body).toBe(201);
    submissionResponse.parse(shown.json());
    expect(await storedCount()).toBe(before + 1);
  });

  it("refuses a shown required question left unanswered, not a hidden one (400 naming d1)", async () => {
    const before = await storedCount();
    const missing = await submit("nestedRequired", {
      p1: choice("nestedRequired", "p1", "YES"),
      c1: choice("nestedRequired", "c1", "B"),
    });
    await expectRefused(missing, { d1: /required but was not answered/ }, before);

    const hiddenRequired = await submit("nestedRequired", {
      p1: choice("nestedRequired", "p1", "YES"),
      c1: choice("nestedRequired", "c1", "A"),
    });
    expect(hiddenRequired.statusCode, hiddenRequired.body).toBe(201);
    expect(await storedCount()).toBe(before + 1);
  });

  it("names each hidden question answered on the screens of LHC-Forms' enableWhen test", async () => {
    const before = await storedCount();
    const response = await submit("enableWhen", {
      Q1: choice("enableWhen", "Q1", "true"),
      // Shown only while Q1 is unanswered, and only when Q1 is false.
      "Q1-not-exists": text("typed before Q1 was answered"),
      "Q1-false": text("typed while Q1 was false"),
      "Q1-true": text("shown: Q1 is true"),
      Q8: [chosen(definitions.enableWhen!, "Q8", "B")],
      // Shown only when both B and C are selected.
      "Q8-eq-B-and-C": text("typed while C was selected"),
      "Q8-eq-B": text("shown: B is selected"),
    });
    await expectRefused(
      response,
      { "Q1-not-exists": /hides it/, "Q1-false": /hides it/, "Q8-eq-B-and-C": /hides it/ },
      before,
    );

    const accepted = await submit("enableWhen", {
      Q1: choice("enableWhen", "Q1", "true"),
      "Q1-exists": text("Q1 is answered"),
      "Q1-true": text("Q1 is true"),
      Q8: [chosen(definitions.enableWhen!, "Q8", "B"), chosen(definitions.enableWhen!, "Q8", "C")],
      "Q8-eq-B-and-C": text("B and C"),
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(await storedCount()).toBe(before + 1);
  });
});
