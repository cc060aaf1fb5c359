/**
 * The survey definition format (spec 02 sections 3 to 5): the single source of truth for what a
 * survey or consent definition may hold. docs/survey-format.md describes it for authors and
 * embeds the JSON Schema generated from these zod schemas. The server validates imported
 * definitions and received submissions with it; the app parses what it downloads with it.
 *
 * A question type the engine does not know is NOT a validation error: the definition still
 * loads, and the question is reported as parsingFailed when the flow reaches it (spec 02 §4).
 */
import * as z from "zod/mini";
import { SIGNER_ROLES, USER_SIGNER_ROLES } from "./roles.ts";

/** The question types the portal renders (spec 02 section 3), as they are written in definitions. */
export const QUESTION_TYPES = [
  "introduction",
  "select_one",
  "select_multiple",
  "pdf",
  "text",
  "prompt",
  "decimal",
  "integer",
  "likert",
  "time",
  "date",
  "datetime",
  "numeric_rating_scale",
  "multiple_field",
  "matrix",
  "scribble",
  "consent_signature",
  "image_capture",
  "submission",
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export function isKnownQuestionType(type: string): type is QuestionType {
  return (QUESTION_TYPES as readonly string[]).includes(type);
}

/** Types that may be shown together in a sibling group (spec 02 section 2). */
export const SIBLING_TYPES = [
  "matrix",
  "numeric_rating_scale",
  "scribble",
  "select_multiple",
  "select_one",
  "text",
  "datetime",
] as const satisfies readonly QuestionType[];

/** The fields of a multiple-field question (spec 02 section 2). */
export const MULTIPLE_FIELD_TYPES = ["text", "integer", "decimal"] as const;

/** The end of the flow: the id the flow reaches after the last question (spec 02 section 4). */
export const SUBMIT_ID = "submit-id";

/** The most decimals a decimal answer keeps (the `decimals` attribute; 1 when it is absent). */
export const MAX_DECIMALS = 10;

/** Text answers hold at most 140 characters (spec 02 sections 5 and 9). */
export const TEXT_MAX_CHARACTERS = 140;
/** Image capture holds at most 3 photos (spec 02 sections 5 and 9). */
export const PHOTOS_MAX_PER_QUESTION = 3;
/** Likert scales have 5 or 7 choices (spec 02 section 5). */
export const LIKERT_CHOICE_COUNTS = [5, 7] as const;

const id = z
  .string()
  .check(z.minLength(1, "must not be empty"), z.maxLength(200, "must be at most 200 characters"));

export const choice = z.looseObject({
  label: z.string(),
  /** The choice's score: what formulas and numeric comparators use. */
  score_value: z.optional(z.number()),
  /** An image shown with the choice (select one with images). */
  imageSrc: z.optional(z.string()),
  /** Consents: choosing this choice of the consent decision question declines the consent. */
  declines: z.optional(z.boolean()),
});
export type Choice = z.infer<typeof choice>;

export const questionAttributes = z.looseObject({
  required: z._default(z.boolean(), false),
  /** Shown after a numeric field, e.g. "mg" or "hours". */
  unit: z.optional(z.string()),
  allowMultipleAnswers: z.optional(z.boolean()),
  /** A numeric field's width in characters. */
  inputWidth: z.optional(z.number().check(z.int(), z.positive())),
  /** Consents: whose question it is (clinician questions are 'clinro'). */
  user_type: z.optional(z.enum(USER_SIGNER_ROLES)),
  user_name: z.optional(z.string()),
  /** Consent signature questions: who signs (clinro and witness questions also carry user_type). */
  signer_role: z.optional(z.enum(SIGNER_ROLES)),
  /** Consents: this select_one question records the participant's decision (see choice declines). */
  consent_decision: z.optional(z.boolean()),
  /** Inclusive bounds of integer, decimal and numeric rating scale answers. */
  min: z.optional(z.number()),
  /**
   * Decimal answers: how many decimals are kept, 1 (spec 02 §5's step 0.1) unless a source
   * says more, e.g. a REDCap number_2dp field or a plain number field (MAX_DECIMALS).
   */
  decimals: z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_DECIMALS))),
  max: z.optional(z.number()),
  /** The labels at the two ends of a numeric rating scale. */
  min_label: z.optional(z.string()),
  max_label: z.optional(z.string()),
  /** Time entry: 24 hour (HH:mm, the default) or 12 hour (hh:mm A). */
  time_format: z.optional(z.enum(["24h", "12h"])),
});
export type QuestionAttributes = z.infer<typeof questionAttributes>;

/** A matrix row or a multiple-field field. */
export const subQuestion = z.looseObject({
  id,
  label: z.string(),
  /** Multiple field only: text, integer or decimal. */
  type: z.optional(z.enum(MULTIPLE_FIELD_TYPES)),
  attributes: z._default(questionAttributes, { required: false }),
});
export type SubQuestion = z.infer<typeof subQuestion>;

export const COMPARATORS = [
  "is_selected",
  "is_not_selected",
  "is_answered",
  "is_not_answered",
  "=",
  "!=",
  ">=",
  ">",
  "<=",
  "<",
] as const;
export type Comparator = (typeof COMPARATORS)[number];

export const logicOperator = z.enum(["and", "or"]);
export type LogicOperator = z.infer<typeof logicOperator>;

export type ComparisonTerm = {
  comparator: Comparator;
  /** The question whose answer is compared. */
  question: string;
  /** Matrix only: the row whose answer is compared. */
  sub_question?: string | undefined;
  /**
   * What the answer is compared with: a choice id for is_selected and is_not_selected; a number,
   * a choice id (compared by its score_value) or a date, datetime or time for the others.
   */
  value?: string | number | boolean | undefined;
};
export type CombinedTerm = { comparator: "boolean_combine"; operator: LogicOperator; terms: ShowIfTerm[] };
export type ShowIfTerm = ComparisonTerm | CombinedTerm;

const comparisonTerm = z.object({
  comparator: z.enum(COMPARATORS),
  question: id,
  sub_question: z.optional(id),
  value: z.optional(z.union([z.string(), z.number(), z.boolean()])),
});

export const showIfTerm: z.ZodMiniType<ShowIfTerm> = z.lazy(() =>
  z.union([
    z.object({
      comparator: z.literal("boolean_combine"),
      operator: logicOperator,
      terms: z.array(showIfTerm).check(z.minLength(1, "must hold at least one term")),
    }),
    comparisonTerm,
  ]),
);

// Named, so that a description of the definition (OpenAPI, JSON Schema) refers to it by name.
z.globalRegistry.add(showIfTerm, { id: "ShowIfTerm" });

/** A question is shown when its show_if terms, joined by the operator (default and), hold. */
export const questionLogic = z.object({
  show_if: z._default(z.array(showIfTerm), []),
  operator: z._default(logicOperator, "and"),
});
export type QuestionLogic = z.infer<typeof questionLogic>;

export const question = z.looseObject({
  id,
  label: z._default(z.string(), ""),
  /** One of QUESTION_TYPES; any other value is reported as parsingFailed when reached. */
  type: z.string().check(z.minLength(1, "must not be empty")),
  /** The name stored with the answer; defaults to the id. */
  name: z.optional(z.string()),
  attributes: z._default(questionAttributes, { required: false }),
  choices: z.optional(z.record(id, choice)),
  choices_order: z.optional(z.array(id)),
  /** Matrix rows or multiple-field fields. */
  questions: z.optional(z.record(id, subQuestion)),
  questions_order: z.optional(z.array(id)),
  /** Instructions shown under the label. */
  comments: z.optional(z.string()),
  sibling_id: z.optional(id),
  imageSrc: z.optional(z.string()),
  /** Image capture: sample photos showing what to take. */
  preview_images: z.optional(z.array(z.string())),
  camera_tip: z.optional(z.string()),
  formula: z.optional(z.string()),
  /** pdf: the document's address. */
  url: z.optional(z.string()),
  logic: z.optional(questionLogic),
});
export type Question = z.infer<typeof question>;

export const score = z.looseObject({
  id,
  name: z.string(),
  description: z.optional(z.string()),
  /** An expression over question values, written {questionId}; see docs/survey-format.md. */
  formula: z.string().check(z.minLength(1, "must not be empty")),
  value: z.optional(z.number()),
});
export type Score = z.infer<typeof score>;

export const domain = z.looseObject({ id, name: z.string(), questions: z._default(z.array(id), []) });
export type Domain = z.infer<typeof domain>;

export const surveyDefinition = z.looseObject({
  id: z.union([z.string().check(z.minLength(1)), z.number().check(z.int())]),
  /** CONSENT, ARTICLE, or another type (CLINRO, SURVEY) for instruments. */
  type: z.string().check(z.minLength(1)),
  title: z.optional(z.string()),
  /** The definition's version: a submission names the version it answered. */
  version: z.optional(
    z.union([z.number().check(z.int(), z.nonnegative()), z.string().check(z.minLength(1))]),
  ),
  /** The question ids in the order they are asked. */
  order: z.array(id).check(z.minLength(1, "must list at least one question")),
  questions: z.record(id, question),
  /** Sibling groups: a sibling id and the ids of the questions shown together under it. */
  siblings: z._default(
    z.record(id, z.array(id).check(z.minLength(1, "must list at least one question"))),
    {},
  ),
  scores: z._default(z.array(score), []),
  scoring: z.optional(z.unknown()),
  domains: z.optional(z.array(domain)),
  questionsWithScoring: z.optional(z.array(id)),
  consent_id: z.optional(z.union([z.string(), z.number().check(z.int())])),
  consent_version: z.optional(z.union([z.string(), z.number().check(z.int())])),
  /**
   * A consent that holds no rating back in a study that asks consent first (an optional
   * sub-study); every other consent must be complete first (core/contracts/consent-gate.ts).
   */
  optional: z.optional(z.boolean()),
  /** Removed from the survey copy that is submitted (spec 02 section 3). */
  url: z.optional(z.string()),
});
export type SurveyDefinition = z.infer<typeof surveyDefinition>;
