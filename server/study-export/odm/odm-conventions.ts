/**
 * How the portal names things in CDISC ODM 1.3.2, in one place: the OIDs of the export, and the
 * FormalExpression contexts that carry a score formula or show-if logic. The ODM reader
 * (server/instrument-import/odm/) reads the same contexts back, so an instrument exported as ODM
 * imports with its scores and logic.
 *
 * OIDs are stable: they are built from ids that never change (the study id, the instrument's
 * slug, the question ids, the site and user ids), so the same item has the same OID in every
 * export and in every definition version (the MetaDataVersion tells the versions apart, as
 * ODM intends). Characters other than letters, digits, `_`, `.` and `-` are written `_xHHHH_`
 * (the XML name-escaping convention), so every OID is a plain token.
 */

/** A score formula in the portal's formula language (docs/survey-format.md), ids as ItemDef Names. */
export const FORMULA_CONTEXT = "clinro-formula";
/** A question's show-if logic as the portal's JSON ({ show_if, operator }), ids as ItemDef Names. */
export const SHOW_IF_CONTEXT = "clinro-show-if-json";

/**
 * An ItemDef Alias naming the portal's question type where ODM's DataType loses it (a likert is
 * a code list, a numeric rating scale an integer), so that an exported form imports as it was.
 */
export const QUESTION_TYPE_ALIAS_CONTEXT = "clinro-question-type";
/**
 * An ItemDef Alias naming the question a matrix row, a select-multiple choice or a
 * multiple-field field belongs to (with the type Alias above), so the reader rebuilds the question.
 */
export const QUESTION_ALIAS_CONTEXT = "clinro-question";
/** An ItemGroupDef Alias naming the sibling group whose questions the item group holds. */
export const SIBLING_GROUP_ALIAS_CONTEXT = "clinro-sibling-group";

/** The study event every instrument completion is recorded under (repeating, unscheduled). */
export const INSTRUMENT_EVENT_OID = "SE.INSTRUMENTS";
/** The study event every consent session is recorded under. */
export const CONSENT_EVENT_OID = "SE.CONSENT";

export function oidPart(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/gu, (character) => {
    const code = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return `_x${code}_`;
  });
}

export const studyOid = (studyId: number) => `ST.${studyId}`;
export const userOid = (userId: number) => `USR.${userId}`;
/** A participant or caregiver who signed a consent: not a portal user, but ODM signatures name a User. */
export const signerOid = (participantId: number, role: string) =>
  `USR.SUBJ.${participantId}.${oidPart(role)}`;
export const locationOid = (siteId: number) => `LOC.${siteId}`;
export const signatureDefOid = (role: string, meaning: string) => `SD.${oidPart(role)}.${oidPart(meaning)}`;
export const measurementUnitOid = (unit: string) => `MU.${oidPart(unit)}`;

/** The form key of an instrument (its slug) or of a consent (its id): every OID of the form starts with it. */
export const instrumentFormKey = (slug: string) => oidPart(slug);
export const consentFormKey = (consentId: number) => `CONSENT${consentId}`;

export const metaDataVersionOid = (formKey: string, version: number) => `MDV.${formKey}.V${version}`;
export const formOid = (formKey: string) => `F.${formKey}`;
export const itemGroupOid = (formKey: string, groupKey: string) => `IG.${formKey}.${oidPart(groupKey)}`;
export const itemOid = (formKey: string, ...ids: string[]) => `IT.${formKey}.${ids.map(oidPart).join(".")}`;
export const scoreItemOid = (formKey: string, scoreId: string) => `SC.${formKey}.${oidPart(scoreId)}`;
export const codeListOid = (formKey: string, questionId: string) => `CL.${formKey}.${oidPart(questionId)}`;
export const methodOid = (formKey: string, scoreId: string) => `MT.${formKey}.${oidPart(scoreId)}`;
export const conditionOid = (formKey: string, questionId: string) => `CD.${formKey}.${oidPart(questionId)}`;
