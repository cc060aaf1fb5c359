/**
 * The clinical half of an ODM 1.3.2 export: one FormData per submission or consent session,
 * written from the form's layout (odm-form-layout.ts). Each FormData carries an AuditRecord
 * (who completed it, at which site, when the server stored it, and where it came from), and each
 * consent signature is a Signature on the ItemData of its signature question, pointing at the
 * SignatureDef that carries its meaning.
 */
import type { AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import type { ExportSignature } from "../export-source.ts";
import type { OdmAnswers, OdmFormLayout } from "./odm-form-layout.ts";
import { element, textElement } from "./xml-text.ts";

export type OdmAudit = {
  userOid: string;
  locationOid: string;
  /** When the server stored it. */
  storedAt: Date;
  sourceId: string;
};

export type OdmSignatureRefs = {
  userOid: (signature: ExportSignature) => string;
  signatureDefOid: (signature: ExportSignature) => string;
};

export type OdmFormDataInput = {
  formOid: string;
  /** The submission's or the session's id: a participant completes a form many times. */
  repeatKey: string;
  records: readonly AnswerRecord[];
  scores: ReadonlyMap<string, number>;
  audit: OdmAudit;
  signatures?: { list: readonly ExportSignature[]; refs: OdmSignatureRefs } | undefined;
};

/** xs:dateTime with an offset or Z, as the device sends signature times. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function writeAuditRecord(audit: OdmAudit): string {
  return element("AuditRecord", {}, [
    element("UserRef", { UserOID: audit.userOid }),
    element("LocationRef", { LocationOID: audit.locationOid }),
    textElement("DateTimeStamp", audit.storedAt.toISOString()),
    textElement("SourceID", audit.sourceId),
  ]);
}

function writeSignature(signature: ExportSignature, locationOid: string, refs: OdmSignatureRefs): string {
  // The moment of signing is the device's capture time; the receipt time when that is unreadable.
  const signedAt = DATE_TIME.test(signature.capturedAt)
    ? signature.capturedAt
    : signature.receivedAt.toISOString();
  return element("Signature", {}, [
    element("UserRef", { UserOID: refs.userOid(signature) }),
    element("LocationRef", { LocationOID: locationOid }),
    element("SignatureRef", { SignatureOID: refs.signatureDefOid(signature) }),
    textElement("DateTimeStamp", signedAt),
  ]);
}

export function writeFormData(layout: OdmFormLayout, input: OdmFormDataInput): string {
  const answers: OdmAnswers = {
    records: new Map(input.records.map((record) => [record.id, record])),
    scores: input.scores,
  };
  const signaturesByQuestion = new Map(
    (input.signatures?.list ?? []).map((signature) => [signature.questionId, signature]),
  );
  const groups: string[] = [];
  for (const group of layout.groups) {
    const items: string[] = [];
    for (const item of group.items) {
      const signature =
        item.signatureQuestionId === undefined
          ? undefined
          : signaturesByQuestion.get(item.signatureQuestionId);
      const value = item.read(answers) ?? signature?.printedName;
      if (value === undefined) continue;
      const signatureXml =
        signature && input.signatures
          ? writeSignature(signature, input.audit.locationOid, input.signatures.refs)
          : "";
      items.push(element("ItemData", { ItemOID: item.oid, Value: value }, signatureXml));
    }
    if (items.length > 0) groups.push(element("ItemGroupData", { ItemGroupOID: group.oid }, items));
  }
  return element("FormData", { FormOID: input.formOid, FormRepeatKey: input.repeatKey }, [
    writeAuditRecord(input.audit),
    ...groups,
  ]);
}
