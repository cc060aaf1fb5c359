/**
 * The part of FHIR R4 the portal writes and reads: Questionnaire, QuestionnaireResponse and
 * Bundle, with the element types they use, and the extension URLs (HL7 core, SDC, and the
 * portal's own). Written by hand rather than generated: only these few resources are needed,
 * and tests validate every resource written against the official FHIR R4 JSON schema.
 *
 * The portal's own extensions carry what FHIR cannot express, so that a Questionnaire exported
 * here imports back unchanged (docs: README, "Standards"); other systems ignore them.
 */

export type Coding = { system?: string; code?: string; display?: string };

export type Extension = {
  url: string;
  valueString?: string;
  valueCode?: string;
  valueDecimal?: number;
  valueInteger?: number;
  valueBoolean?: boolean;
  valueDateTime?: string;
  valueCoding?: Coding;
  valueCodeableConcept?: { coding: Coding[]; text?: string };
  valueExpression?: { name?: string; language: string; expression: string; description?: string };
  valueSignature?: Signature;
};

export type Signature = {
  type: Coding[];
  /** An instant: date, time, seconds and offset. */
  when: string;
  who: Reference;
};

export type Attachment = { contentType?: string; data?: string; url?: string; title?: string };

/** One answer value: exactly one of these is set. */
export type AnswerValue = {
  valueBoolean?: boolean;
  valueDecimal?: number;
  valueInteger?: number;
  valueDate?: string;
  valueDateTime?: string;
  valueTime?: string;
  valueString?: string;
  valueCoding?: Coding;
  valueAttachment?: Attachment;
};

export const ITEM_TYPES = [
  "group",
  "display",
  "boolean",
  "decimal",
  "integer",
  "date",
  "dateTime",
  "time",
  "string",
  "text",
  "url",
  "choice",
  "open-choice",
  "attachment",
  "reference",
  "quantity",
] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export type EnableWhenOperator = "exists" | "=" | "!=" | ">" | "<" | ">=" | "<=";

export type EnableWhen = {
  question: string;
  operator: EnableWhenOperator;
  answerBoolean?: boolean;
  answerDecimal?: number;
  answerInteger?: number;
  answerDate?: string;
  answerDateTime?: string;
  answerTime?: string;
  answerString?: string;
  answerCoding?: Coding;
};

export type AnswerOption = AnswerValue & { extension?: Extension[]; initialSelected?: boolean };

export type QuestionnaireItem = {
  linkId: string;
  text?: string;
  type: ItemType | (string & {});
  prefix?: string;
  required?: boolean;
  repeats?: boolean;
  readOnly?: boolean;
  maxLength?: number;
  enableWhen?: EnableWhen[];
  enableBehavior?: "all" | "any";
  answerOption?: AnswerOption[];
  answerValueSet?: string;
  initial?: AnswerValue[];
  code?: Coding[];
  definition?: string;
  extension?: Extension[];
  item?: QuestionnaireItem[];
};

export type ValueSetConcept = { code: string; display?: string; extension?: Extension[] };

export type ValueSet = {
  resourceType: "ValueSet";
  id?: string;
  /** Its canonical url, by which an answerValueSet may name it instead of "#id". */
  url?: string;
  version?: string;
  compose?: { include: { system?: string; concept?: ValueSetConcept[] }[] };
  expansion?: { contains?: (ValueSetConcept & { system?: string })[] };
};

export type Questionnaire = {
  resourceType: "Questionnaire";
  id?: string;
  url?: string;
  version?: string;
  name?: string;
  title?: string;
  status: "draft" | "active" | "retired" | "unknown";
  subjectType?: string[];
  description?: string;
  extension?: Extension[];
  contained?: ({ resourceType: string; id?: string } & Record<string, unknown>)[];
  code?: Coding[];
  item?: QuestionnaireItem[];
};

export type Identifier = { system?: string; value: string };
export type Reference = { reference?: string; type?: string; identifier?: Identifier; display?: string };

export type ResponseAnswer = AnswerValue & { item?: ResponseItem[] };

export type ResponseItem = {
  linkId: string;
  text?: string;
  answer?: ResponseAnswer[];
  item?: ResponseItem[];
};

export type QuestionnaireResponse = {
  resourceType: "QuestionnaireResponse";
  id?: string;
  identifier?: Identifier;
  questionnaire: string;
  status: "in-progress" | "completed" | "amended" | "entered-in-error" | "stopped";
  subject?: Reference;
  authored?: string;
  author?: Reference;
  extension?: Extension[];
  item?: ResponseItem[];
};

export type Bundle = {
  resourceType: "Bundle";
  type: "collection";
  timestamp?: string;
  entry?: { fullUrl?: string; resource: Questionnaire | QuestionnaireResponse }[];
};

// ---------------------------------------------------------------------------------------------
// Extension URLs

/** A choice's score (FHIR R4 core); SDC 3 and R5 call it itemWeight. */
export const ORDINAL_VALUE_URL = "http://hl7.org/fhir/StructureDefinition/ordinalValue";
export const ITEM_WEIGHT_URL = "http://hl7.org/fhir/StructureDefinition/itemWeight";
export const MIN_VALUE_URL = "http://hl7.org/fhir/StructureDefinition/minValue";
export const MAX_VALUE_URL = "http://hl7.org/fhir/StructureDefinition/maxValue";
export const UNIT_URL = "http://hl7.org/fhir/StructureDefinition/questionnaire-unit";
export const ITEM_CONTROL_URL = "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl";
export const ITEM_CONTROL_SYSTEM = "http://hl7.org/fhir/questionnaire-item-control";
export const SLIDER_STEP_URL = "http://hl7.org/fhir/StructureDefinition/questionnaire-sliderStepValue";
export const HIDDEN_URL = "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden";
export const VARIABLE_URL = "http://hl7.org/fhir/StructureDefinition/variable";
export const CALCULATED_EXPRESSION_URL =
  "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression";
export const FHIRPATH_LANGUAGE = "text/fhirpath";

/**
 * The portal's own extensions. They are URNs, not web addresses: the portal has no public
 * registry of StructureDefinitions, and a URN claims no domain it does not own.
 */
export const CLINRO_EXTENSION = {
  /** valueCode: the portal's question type, where the FHIR item type alone is ambiguous. */
  questionType: "urn:clinro:fhir:extension:question-type",
  /** valueString, JSON: the question's fields FHIR has no element for (name, time_format...). */
  questionExtras: "urn:clinro:fhir:extension:question-extras",
  /** valueString, JSON {show_if, operator}: show-if logic enableWhen cannot express. */
  showIf: "urn:clinro:fhir:extension:show-if",
  /** valueString: a score formula calculatedExpression cannot express, verbatim. */
  scoreFormula: "urn:clinro:fhir:extension:score-formula",
  /** valueString: a score's description. */
  scoreDescription: "urn:clinro:fhir:extension:score-description",
  /** valueString, JSON: the definition's fields FHIR has no element for (siblings' order...). */
  definitionExtras: "urn:clinro:fhir:extension:definition-extras",
  /** On a QuestionnaireResponse: the server's receipt time (valueDateTime is not in our subset). */
  receivedAt: "urn:clinro:fhir:extension:received-at",
  /** On a QuestionnaireResponse: the device's start time, when the submission carried one. */
  deviceStartedAt: "urn:clinro:fhir:extension:device-started-at",
  /** On a QuestionnaireResponse: the site the participant belongs to. */
  site: "urn:clinro:fhir:extension:site",
  /** On a QuestionnaireResponse: the browser that completed it. */
  browser: "urn:clinro:fhir:extension:browser",
  /** On a consent's QuestionnaireResponse: the participant's consent status now. */
  consentStatus: "urn:clinro:fhir:extension:consent-status",
  /** On a consent's QuestionnaireResponse: the ids of the sessions (clinician, witness) it holds. */
  consentSessions: "urn:clinro:fhir:extension:consent-sessions",
} as const;

/** A signature on a QuestionnaireResponse (FHIR R4 core extension). */
export const RESPONSE_SIGNATURE_URL =
  "http://hl7.org/fhir/StructureDefinition/questionnaireresponse-signature";
/** ASTM E1762-95 signature types, the value set FHIR R4 gives Signature.type. */
export const SIGNATURE_TYPE_SYSTEM = "urn:iso-astm:E1762-95:2013";
/** The signature's meaning as the consent states it (21 CFR 11.50), beside its ASTM type. */
export const SIGNATURE_MEANING_SYSTEM = "urn:clinro:fhir:signature-meaning";

/** The linkId prefix of a score's calculated item: scores and questions may share ids. */
export const SCORE_LINK_PREFIX = "score:";

export function extensionOf(holder: { extension?: Extension[] | undefined }, url: string) {
  return holder.extension?.find((extension) => extension.url === url);
}

export function itemControlOf(item: QuestionnaireItem): string | undefined {
  const coding = extensionOf(item, ITEM_CONTROL_URL)?.valueCodeableConcept?.coding;
  return coding?.find((code) => code.code !== undefined)?.code;
}

export function itemControlExtension(code: string): Extension {
  return {
    url: ITEM_CONTROL_URL,
    valueCodeableConcept: { coding: [{ system: ITEM_CONTROL_SYSTEM, code }] },
  };
}
