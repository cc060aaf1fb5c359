/**
 * The CDISC ODM 1.3.2 form reader (server/instrument-import/odm/): the PHQ-9, GAD-7 and HAM-A
 * fixtures (written from their public definitions, each valid against the official schema) into
 * definitions the engine accepts with their questions, choices and scores; each ODM construct
 * mapped or named in the report; unreadable files refused with the reason; the portal's own ODM
 * export read back as the same questions, choices, logic and scores; and `clinro instrument
 * import --from odm` storing a form, or nothing, on PGlite and PostgreSQL.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { orderedChoices, orderedSubQuestions, valueEntry } from "../../core/survey-engine/answer-values.ts";
import { scoreSurvey } from "../../core/survey-engine/scores.ts";
import { parseSurveyDefinition } from "../../core/survey-engine/validate-definition.ts";
import { readStandardInstrumentBytes } from "../../server/instrument-import/import-standard-instrument.ts";
import { INSTRUMENT_READERS } from "../../server/instrument-import/instrument-readers.ts";
import { readOdmInstrument } from "../../server/instrument-import/odm/read-odm-instrument.ts";
import { ImportError } from "../../server/instruments/import-instrument.ts";
import type { ExportSource } from "../../server/study-export/export-source.ts";
import { writeOdmExport } from "../../server/study-export/odm/write-odm-export.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { definitionVersions, importedInstrument, importInstrument } from "../support/cli-runs.ts";
import { rowCounts } from "../support/row-counts.ts";
import { chosen, parseDefinitionOrThrow } from "../support/submissions.ts";
import { odmSchemaCheckAvailable, odmSchemaTestNote, validateOdm } from "../support/xmllint.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixturePath = (name: string) => path.join(here, "../fixtures/standards/odm", name);
const fixture = (name: string) => new Uint8Array(readFileSync(fixturePath(name)));
const FIXTURES = ["phq-9.odm.xml", "gad-7.odm.xml", "ham-a.odm.xml"];

const bytes = (text: string) => new TextEncoder().encode(text);

/** A one-form ODM document around the given MetaDataVersion content. */
function odmWith(metadata: string, studyExtra = "") {
  return bytes(`<?xml version="1.0" encoding="UTF-8"?>
<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" FileType="Snapshot" ODMVersion="1.3.2" FileOID="T" CreationDateTime="2026-11-27T12:00:00Z">
<Study OID="S"><GlobalVariables><StudyName>S</StudyName><StudyDescription>S</StudyDescription><ProtocolName>S</ProtocolName></GlobalVariables>
${studyExtra}
<MetaDataVersion OID="MDV" Name="MDV">${metadata}</MetaDataVersion></Study></ODM>`);
}

/** Records answering every question with the given choice (or number), as the flow makes them. */
function answering(
  definition: SurveyDefinition,
  answer: (questionId: string) => AnswerEntry[],
): AnswerRecord[] {
  return definition.order.map((id) => makeRecord(definition.questions[id]!, answer(id), new Date()));
}

function scoresOf(definition: SurveyDefinition, records: AnswerRecord[]) {
  const byId = new Map(records.map((record) => [record.id, record]));
  return Object.fromEntries(
    scoreSurvey(definition, (id) => byId.get(id)).map((score) => [score.id, score.final_value]),
  );
}

async function* emptyStream<T>(): AsyncIterable<T> {}

function expectImportError(read: () => unknown, message: RegExp) {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error("the file was not refused");
}

describe("ODM form import: the fixtures", () => {
  for (const name of FIXTURES) {
    it.skipIf(!odmSchemaCheckAvailable)(`${name} is valid ODM 1.3.2 ${odmSchemaTestNote}`, () => {
      expect(validateOdm(readFileSync(fixturePath(name), "utf8"))).toEqual({ valid: true });
    });
  }

  it("is the reader registered for --from odm", () => {
    expect(INSTRUMENT_READERS.odm).toBe(readOdmInstrument);
  });

  it("imports PHQ-9: nine items 0 to 3 and the difficulty item, the total as a score, the XPath condition reported", () => {
    const imported = readStandardInstrumentBytes("odm", fixture("phq-9.odm.xml"), "phq-9.odm.xml");
    expect(parseSurveyDefinition(imported.definition).ok).toBe(true);
    expect(imported).toMatchObject({ title: "PHQ-9", slug: "phq-9" });
    const { definition } = imported;
    expect(definition.order).toEqual([
      ...Array.from({ length: 9 }, (_, index) => `phq9_0${index + 1}`),
      "phq9_difficulty",
    ]);
    expect(definition.questions["phq9_02"]).toMatchObject({
      type: "select_one",
      label: "Feeling down, depressed, or hopeless",
      attributes: { required: true },
      choices_order: ["0", "1", "2", "3"],
      choices: {
        "0": { label: "Not at all", score_value: 0 },
        "3": { label: "Nearly every day", score_value: 3 },
      },
    });
    expect(definition.questions["phq9_01"]!.comments).toBe(
      "Over the last 2 weeks, how often have you been bothered by any of the following problems?",
    );
    expect(definition.questions["phq9_difficulty"]!.attributes.required).toBe(false);
    expect(definition.scores.map((score) => score.id)).toEqual(["phq9_total"]);
    // Every item "More than half the days" (2): 18; the difficulty item is not in the total.
    const records = answering(definition, (id) => [chosen(definition, id, "2")]);
    expect(scoresOf(definition, records)).toEqual({ phq9_total: 18 });
    expect(imported.report).toEqual([
      {
        source: "Question phq9_difficulty (ConditionDef CD.PHQ9_ANY_PROBLEM)",
        problem: expect.stringMatching(
          /^the collection exception condition is not in a form the portal reads \(XPath: /,
        ),
      },
      {
        source: "ItemDef IT.PHQ9_TOTAL (MethodDef MT.PHQ9_TOTAL)",
        problem: "a range check on a computed item: scores have no bounds in the portal; not imported",
      },
    ]);
  });

  it("imports GAD-7: seven items and the difficulty item, the total from a plain sum of item OIDs, the LOINC alias reported", () => {
    const imported = readOdmInstrument(fixture("gad-7.odm.xml"), "gad-7.odm.xml");
    expect(parseSurveyDefinition(imported.definition).ok).toBe(true);
    const { definition } = imported;
    expect(definition.order).toEqual([
      "gad7_1",
      "gad7_2",
      "gad7_3",
      "gad7_4",
      "gad7_5",
      "gad7_6",
      "gad7_7",
      "gad7_difficulty",
    ]);
    expect(definition.scores).toEqual([
      {
        id: "gad7_total",
        name: "GAD-7 total score",
        description: "The sum of the seven items (0 to 21)",
        formula: "sum({gad7_1}, {gad7_2}, {gad7_3}, {gad7_4}, {gad7_5}, {gad7_6}, {gad7_7})",
      },
    ]);
    const records = answering(definition, (id) => [chosen(definition, id, "3")]);
    expect(scoresOf(definition, records)).toEqual({ gad7_total: 21 });
    expect(imported.report).toEqual([
      { source: "ItemDef IT.GAD7_1", problem: 'Alias LOINC "69725-0" is not imported' },
    ]);
  });

  it("imports HAM-A: fourteen clinician-rated items 0 to 4 and the total 0 to 56", () => {
    const imported = readOdmInstrument(fixture("ham-a.odm.xml"), "ham-a.odm.xml");
    expect(parseSurveyDefinition(imported.definition).ok).toBe(true);
    const { definition } = imported;
    expect(definition.order).toHaveLength(14);
    expect(definition.questions["hama_01"]!.label).toBe(
      "Anxious mood: Worries, anticipation of the worst, fearful anticipation, irritability",
    );
    expect(
      orderedChoices(definition.questions["hama_14"]!).map(({ id, choice }) => [
        id,
        choice.label,
        choice.score_value,
      ]),
    ).toEqual([
      ["0", "Not present", 0],
      ["1", "Mild", 1],
      ["2", "Moderate", 2],
      ["3", "Severe", 3],
      ["4", "Very severe", 4],
    ]);
    expect(
      scoresOf(
        definition,
        answering(definition, (id) => [chosen(definition, id, "4")]),
      ),
    ).toEqual({ hama_total: 56 });
    expect(
      scoresOf(
        definition,
        answering(definition, (id) => [chosen(definition, id, "1")]),
      ),
    ).toEqual({ hama_total: 14 });
    expect(imported.report.map((entry) => entry.source)).toEqual([
      "ItemDef IT.HAMA_TOTAL (MethodDef MT.HAMA_TOTAL)",
    ]);
  });
});

describe("ODM form import: how each construct maps", () => {
  const form = (groups: string, rest: string) =>
    `<FormDef OID="F.ONE" Name="Vital signs &amp; more" Repeating="No">${groups}</FormDef>${rest}`;

  it("maps data types, ranges, units, mandatory, languages and code lists; names what it cannot map", () => {
    const imported = readOdmInstrument(
      odmWith(
        form(
          `<ItemGroupRef ItemGroupOID="IG" Mandatory="Yes"/>`,
          `<ItemGroupDef OID="IG" Name="IG" Repeating="No">
            <ItemRef ItemOID="IT.AGE" Mandatory="Yes" OrderNumber="1"/>
            <ItemRef ItemOID="IT.WEIGHT" Mandatory="No" OrderNumber="2"/>
            <ItemRef ItemOID="IT.SEEN" Mandatory="No" OrderNumber="3"/>
            <ItemRef ItemOID="IT.VISIT" Mandatory="No" OrderNumber="4"/>
            <ItemRef ItemOID="IT.AT" Mandatory="No" OrderNumber="5"/>
            <ItemRef ItemOID="IT.WOKE" Mandatory="No" OrderNumber="6"/>
            <ItemRef ItemOID="IT.ONSET" Mandatory="No" OrderNumber="7"/>
            <ItemRef ItemOID="IT.NOTE" Mandatory="No" OrderNumber="8"/>
            <ItemRef ItemOID="IT.SEX" Mandatory="No" OrderNumber="9"/>
            <ItemRef ItemOID="IT.AE TERM" Mandatory="No" OrderNumber="10"/>
          </ItemGroupDef>
          <ItemDef OID="IT.AGE" Name="age" DataType="integer">
            <Question><TranslatedText xml:lang="fr">Âge</TranslatedText><TranslatedText xml:lang="en">Age</TranslatedText></Question>
            <MeasurementUnitRef MeasurementUnitOID="MU.Y"/>
            <RangeCheck Comparator="GT" SoftHard="Hard"><CheckValue>17</CheckValue></RangeCheck>
            <RangeCheck Comparator="LE" SoftHard="Soft"><CheckValue>120</CheckValue></RangeCheck>
          </ItemDef>
          <ItemDef OID="IT.WEIGHT" Name="weight" DataType="float">
            <Question><TranslatedText>Weight</TranslatedText></Question>
            <RangeCheck Comparator="GE" SoftHard="Hard"><CheckValue>0.5</CheckValue></RangeCheck>
            <RangeCheck Comparator="IN" SoftHard="Hard"><CheckValue>1</CheckValue><CheckValue>2</CheckValue></RangeCheck>
          </ItemDef>
          <ItemDef OID="IT.SEEN" Name="seen" DataType="boolean"><Question><TranslatedText>Seen today?</TranslatedText></Question></ItemDef>
          <ItemDef OID="IT.VISIT" Name="visit" DataType="date"><Question><TranslatedText>Visit</TranslatedText></Question></ItemDef>
          <ItemDef OID="IT.AT" Name="at" DataType="datetime"><Question><TranslatedText>At</TranslatedText></Question></ItemDef>
          <ItemDef OID="IT.WOKE" Name="woke" DataType="time"><Question><TranslatedText>Woke</TranslatedText></Question></ItemDef>
          <ItemDef OID="IT.ONSET" Name="onset" DataType="partialDate"><Question><TranslatedText>Onset</TranslatedText></Question></ItemDef>
          <ItemDef OID="IT.NOTE" Name="note" DataType="text" Length="400">
            <Question><TranslatedText>Note &lt;free&gt;</TranslatedText></Question>
            <RangeCheck Comparator="LE" SoftHard="Hard"><CheckValue>3</CheckValue></RangeCheck>
          </ItemDef>
          <ItemDef OID="IT.SEX" Name="sex" DataType="text">
            <Question><TranslatedText>Sex</TranslatedText></Question><CodeListRef CodeListOID="CL.SEX"/>
          </ItemDef>
          <ItemDef OID="IT.AE TERM" Name="AE term!" DataType="text">
            <Question><TranslatedText>Adverse event</TranslatedText></Question><CodeListRef CodeListOID="CL.MEDDRA"/>
          </ItemDef>
          <CodeList OID="CL.SEX" Name="Sex" DataType="text">
            <CodeListItem CodedValue="F" OrderNumber="2"><Decode><TranslatedText>Female</TranslatedText></Decode></CodeListItem>
            <CodeListItem CodedValue="M" OrderNumber="1" Rank="1"><Decode><TranslatedText>Male</TranslatedText></Decode></CodeListItem>
          </CodeList>
          <CodeList OID="CL.MEDDRA" Name="MedDRA" DataType="text"><ExternalCodeList Dictionary="MedDRA" Version="26.0"/></CodeList>`,
        ),
        `<BasicDefinitions><MeasurementUnit OID="MU.Y" Name="Years"><Symbol><TranslatedText>years</TranslatedText></Symbol></MeasurementUnit></BasicDefinitions>`,
      ),
      "vitals.xml",
    );
    const { definition, report } = imported;
    expect(parseSurveyDefinition(definition).ok).toBe(true);
    expect(imported).toMatchObject({ title: "Vital signs & more", slug: "vital-signs-more" });
    const q = definition.questions;
    expect(definition.order).toEqual([
      "age",
      "weight",
      "seen",
      "visit",
      "at",
      "woke",
      "onset",
      "note",
      "sex",
      "IT.AE_TERM",
    ]);
    expect(q["age"]).toMatchObject({
      type: "integer",
      label: "Age",
      attributes: { required: true, min: 18, max: 120, unit: "years" },
    });
    expect(q["weight"]).toMatchObject({ type: "decimal", attributes: { required: false, min: 0.5 } });
    expect(q["weight"]!.attributes.max).toBeUndefined();
    expect(q["seen"]).toMatchObject({
      type: "select_one",
      choices_order: ["1", "0"],
      choices: { "1": { label: "Yes", score_value: 1 }, "0": { label: "No", score_value: 0 } },
    });
    expect([q["visit"]!.type, q["at"]!.type, q["woke"]!.type, q["onset"]!.type, q["note"]!.type]).toEqual([
      "date",
      "datetime",
      "time",
      "text",
      "text",
    ]);
    expect(q["note"]!.label).toBe("Note <free>");
    // Choices in OrderNumber order; the score is the Rank, else a numeric coded value.
    expect(q["sex"]).toMatchObject({
      type: "select_one",
      choices_order: ["M", "F"],
      choices: { M: { label: "Male", score_value: 1 } },
    });
    expect(q["sex"]!.choices!["F"]!.score_value).toBeUndefined();
    expect(q["IT.AE_TERM"]!.type).toBe("text");
    expect(report).toEqual([
      {
        source: "ItemDef IT.AGE",
        problem: "RangeCheck LE 120: a soft check becomes a hard bound in the portal",
      },
      {
        source: "ItemDef IT.WEIGHT",
        problem: "RangeCheck IN 1, 2: only a bound on a number is imported; not imported",
      },
      {
        source: "ItemDef IT.ONSET",
        problem: "DataType partialDate has no question type in the portal: imported as text",
      },
      {
        source: "ItemDef IT.NOTE",
        problem: "Length 400: text answers hold at most 140 characters in the portal",
      },
      {
        source: "ItemDef IT.NOTE",
        problem: "RangeCheck LE 3: only a bound on a number is imported; not imported",
      },
      {
        source: "CodeList CL.MEDDRA",
        problem:
          "an external code list (a dictionary such as MedDRA) cannot be imported: the question is imported as text",
      },
    ]);
  });

  it("reads the first form of an odm:-prefixed file, and reports the other forms, methods and conditions it cannot map", () => {
    const prefixed = `<?xml version="1.0"?>
<odm:ODM xmlns:odm="http://www.cdisc.org/ns/odm/v1.3" FileType="Snapshot" FileOID="T" CreationDateTime="2026-11-27T12:00:00Z">
 <odm:Study OID="S"><odm:MetaDataVersion OID="V" Name="V">
  <odm:FormDef OID="F.A" Name="First" Repeating="No"><odm:ItemGroupRef ItemGroupOID="IG" Mandatory="Yes"/></odm:FormDef>
  <odm:FormDef OID="F.B" Name="Second" Repeating="No"><odm:ItemGroupRef ItemGroupOID="IG" Mandatory="Yes"/></odm:FormDef>
  <odm:ItemGroupDef OID="IG" Name="IG" Repeating="Yes">
   <odm:ItemRef ItemOID="IT.A" Mandatory="Yes"/>
   <odm:ItemRef ItemOID="IT.B" Mandatory="No" CollectionExceptionConditionOID="CD.B"/>
   <odm:ItemRef ItemOID="IT.C" Mandatory="No" CollectionExceptionConditionOID="CD.C"/>
   <odm:ItemRef ItemOID="IT.BMI" Mandatory="No" MethodOID="MT.BMI"/>
   <odm:ItemRef ItemOID="IT.GONE" Mandatory="No"/>
  </odm:ItemGroupDef>
  <odm:ItemDef OID="IT.A" Name="a" DataType="integer"><odm:Question><odm:TranslatedText>A</odm:TranslatedText></odm:Question></odm:ItemDef>
  <odm:ItemDef OID="IT.B" Name="b" DataType="integer"><odm:Question><odm:TranslatedText>B</odm:TranslatedText></odm:Question></odm:ItemDef>
  <odm:ItemDef OID="IT.C" Name="c" DataType="text"><odm:Question><odm:TranslatedText>C</odm:TranslatedText></odm:Question></odm:ItemDef>
  <odm:ItemDef OID="IT.BMI" Name="bmi" DataType="float"><odm:Question><odm:TranslatedText>BMI</odm:TranslatedText></odm:Question></odm:ItemDef>
  <odm:ConditionDef OID="CD.B" Name="B"><odm:Description><odm:TranslatedText>b</odm:TranslatedText></odm:Description>
   <odm:FormalExpression Context="clinro-show-if-json">{"show_if":[{"comparator":"&gt;=","question":"a","value":3}],"operator":"and"}</odm:FormalExpression></odm:ConditionDef>
  <odm:ConditionDef OID="CD.C" Name="C"><odm:Description><odm:TranslatedText>c</odm:TranslatedText></odm:Description>
   <odm:FormalExpression Context="clinro-show-if-json">{"show_if":[{"comparator":"is_answered","question":"later"}]}</odm:FormalExpression></odm:ConditionDef>
  <odm:MethodDef OID="MT.BMI" Name="BMI" Type="Computation"><odm:Description><odm:TranslatedText>BMI</odm:TranslatedText></odm:Description>
   <odm:FormalExpression Context="SAS">weight / (height * height)</odm:FormalExpression></odm:MethodDef>
 </odm:MetaDataVersion></odm:Study></odm:ODM>`;
    const { definition, report } = readOdmInstrument(bytes(prefixed), "two-forms.xml");
    expect(definition.order).toEqual(["a", "b", "c"]);
    expect(definition.questions["b"]!.logic).toEqual({
      show_if: [{ comparator: ">=", question: "a", value: 3 }],
      operator: "and",
    });
    expect(definition.questions["c"]!.logic).toBeUndefined();
    expect(definition.scores).toEqual([]);
    expect(report).toEqual([
      { source: "FormDef F.B", problem: "only the first form of the file is imported: this form is not" },
      {
        source: "ItemGroupDef IG",
        problem: "a repeating item group is imported as asked once: the portal has no repeating groups",
      },
      { source: "ItemRef IT.GONE in IG", problem: "names an ItemDef the file does not define: skipped" },
      {
        source: "ItemDef IT.BMI (MethodDef MT.BMI)",
        problem:
          "the method is neither a plain sum of items nor in the portal's formula language (SAS: weight / (height * height)): not imported as a score",
      },
      {
        source: "Question c",
        problem: expect.stringMatching(/^show-if logic not imported: Question "c", field "logic/),
      },
    ]);
  });

  it("refuses a file it cannot read, saying why", () => {
    const cases: [Uint8Array, RegExp][] = [
      [bytes(""), /^empty\.xml is empty$/],
      [
        bytes("Variable / Field Name,Form Name\nage,demo\n"),
        /^empty\.xml is not a CDISC ODM file: its root element is missing, not ODM$|not well-formed XML/,
      ],
      [bytes("<ODM><Study></ODM>"), /^empty\.xml is not well-formed XML: line 1, column \d+: /],
      [
        bytes('<?xml version="1.0"?><Questionnaire xmlns="http://hl7.org/fhir"/>'),
        /^empty\.xml is not a CDISC ODM file: its root element is Questionnaire, not ODM$/,
      ],
      [
        bytes('<!DOCTYPE ODM [<!ENTITY a "aaaa">]><ODM/>'),
        /^empty\.xml holds a DOCTYPE, which an ODM file never does$/,
      ],
      [odmWith(""), /^empty\.xml holds no FormDef: there is no form to import$/],
      [bytes('<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3"/>'), /^empty\.xml holds no FormDef/],
      [
        odmWith('<FormDef OID="F" Name="Empty" Repeating="No"/>'),
        /^empty\.xml: the form F holds no item to ask$/,
      ],
    ];
    for (const [file, message] of cases)
      expectImportError(() => readOdmInstrument(file, "empty.xml"), message);
  });
});

describe("ODM form import: the portal's own ODM export reads back the same", () => {
  const seedDefinition = (name: string) =>
    parseDefinitionOrThrow(
      JSON.parse(readFileSync(path.join(here, `../../server/seed/instruments/${name}.json`), "utf8")),
    );

  async function exportedThenImported(slug: string, definition: SurveyDefinition) {
    const source: ExportSource = {
      scope: { studyId: 1 },
      study: { id: 1, name: "Round trip" },
      sites: [],
      users: [],
      instrumentVersions: [
        {
          instrumentId: 1,
          slug,
          name: definition.title ?? slug,
          instrumentType: "CLINRO",
          versionNumber: 1,
          definition,
        },
      ],
      consentVersions: [],
      // An export of the metadata alone: no data.
      submissions: emptyStream,
      consentSignings: emptyStream,
    };
    let xml = "";
    for await (const piece of writeOdmExport(source)) xml += piece;
    return readOdmInstrument(bytes(xml), `${slug}.xml`);
  }

  /** What a question asks: its type, label, instructions, choices in order, bounds, logic. */
  const asked = (definition: SurveyDefinition) =>
    definition.order
      .map((id) => definition.questions[id]!)
      .filter((question) => !["introduction", "prompt", "pdf", "submission"].includes(question.type))
      .map((question) => ({
        id: question.id,
        type: question.type,
        label: question.label,
        comments: question.comments,
        required: question.attributes.required,
        min: question.attributes.min,
        max: question.attributes.max,
        unit: question.attributes.unit,
        choices: orderedChoices(question).map(({ id, choice }) => [id, choice.label, choice.score_value]),
        rows: orderedSubQuestions(question).map((row) => [
          row.id,
          row.label,
          row.type,
          row.attributes.min,
          row.attributes.max,
          row.attributes.unit,
        ]),
        sibling: question.sibling_id,
        logic: question.logic?.show_if.length ? question.logic : undefined,
      }));

  for (const name of ["ham-d-17", "cgi-s", "adverse-events-review", "sleep-diary-review", "kitchen-sink"]) {
    it(`${name}: the same questions, choices, logic and scores on the same answers`, async () => {
      const original = seedDefinition(name);
      const { definition: imported } = await exportedThenImported(name, original);
      expect(parseSurveyDefinition(imported).ok).toBe(true);
      expect(asked(imported)).toEqual(asked(original));
      expect(imported.scores.map(({ id, formula }) => ({ id, formula }))).toEqual(
        original.scores.map(({ id, formula }) => ({ id, formula })),
      );
      // The same answers give the same scores: every choice question's last choice, every number its maximum.
      const answer = (definition: SurveyDefinition) => (id: string) => {
        const question = definition.questions[id]!;
        const choices = orderedChoices(question);
        if (choices.length > 0) return [chosen(definition, id, choices[choices.length - 1]!.id)];
        if (["integer", "decimal", "numeric_rating_scale"].includes(question.type))
          return [valueEntry(question.attributes.max ?? 7)];
        return [];
      };
      const originalScores = scoresOf(original, answering(original, answer(original)));
      expect(scoresOf(imported, answering(imported, answer(imported)))).toEqual(originalScores);
    });
  }
});

describeOnEachDatabase("clinro instrument import --from odm", (api) => {
  const odmImport = (file: string) => importInstrument(api, { from: "odm", file, studyId: 101 });

  it("stores the HAM-A form as a clinician instrument the engine accepts, and prints the report", async () => {
    const result = await odmImport(fixturePath("ham-a.odm.xml"));
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^Created instrument \d+ "HAM-A" \(slug ham-a\) of study 101 with definition version 1/,
    );
    expect(result.out).toContain(
      "  ItemDef IT.HAMA_TOTAL (MethodDef MT.HAMA_TOTAL): a range check on a computed item",
    );
    const created = await importedInstrument(api, 101, "ham-a");
    const [stored] = await definitionVersions(api, created.id);
    expect(parseSurveyDefinition(stored!.definition).ok).toBe(true);
    expect(stored!.definition).toMatchObject({
      scores: [{ id: "hama_total" }],
      questions: { hama_14: { type: "select_one" } },
    });
  });

  it("refuses a file that is not ODM, with the reason, and stores nothing", async () => {
    const before = await rowCounts(api.db);
    const result = await odmImport(path.join(here, "../fixtures/standards/redcap/phq9-data-dictionary.csv"));
    expect(result.code).not.toBe(0);
    expect(result.err).toMatch(/phq9-data-dictionary\.csv is not (well-formed XML|a CDISC ODM file)/);
    expect(await rowCounts(api.db)).toEqual(before);
  });
});
