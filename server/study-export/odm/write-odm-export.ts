/**
 * The study export as CDISC ODM 1.3.2 XML (a Snapshot): what OpenClinica, Castor, REDCap and a
 * sponsor's data management read. Streams: it yields the document in pieces, one FormData at a
 * time, and holds only the study's metadata and one participant's forms in memory.
 *
 * The document, in the order the schema demands:
 * - Study: GlobalVariables, BasicDefinitions (the units), and one MetaDataVersion per definition
 *   version, instrument versions then consent versions (odm-metadata-xml.ts). Each version's
 *   Protocol holds one study event: SE.INSTRUMENTS for instruments, SE.CONSENT for consents,
 *   since the portal records completions, not scheduled visits.
 * - AdminData: a User per staff member in the export and per participant or caregiver who signed
 *   a consent (signatures must name a User), a Location per site, and a SignatureDef per signer
 *   role and meaning. A Location's MetaDataVersionRefs carry the export's date as EffectiveDate:
 *   the source does not say when each version was published.
 * - ClinicalData: ODM ties a ClinicalData to one MetaDataVersion, and submissions arrive by
 *   participant; so each participant has one ClinicalData (with one SubjectData, SubjectKey =
 *   subject id, SiteRef = their site) per definition version they have forms in, holding a
 *   FormData per submission (FormRepeatKey = the submission id) with its AuditRecord, then the
 *   same for consent sessions, each signature a Signature on its signature item.
 */
import { SIGNATURE_MEANINGS } from "../../../core/contracts/consent-schemas.ts";
import type {
  ExportConsentSigning,
  ExportSignature,
  ExportSource,
  ExportSubmission,
} from "../export-source.ts";
import { writeFormData, type OdmSignatureRefs } from "./odm-clinical-xml.ts";
import {
  CONSENT_EVENT_OID,
  INSTRUMENT_EVENT_OID,
  consentFormKey,
  formOid,
  instrumentFormKey,
  locationOid,
  metaDataVersionOid,
  signatureDefOid,
  signerOid,
  studyOid,
  userOid,
} from "./odm-conventions.ts";
import { layoutForm, type OdmFormLayout } from "./odm-form-layout.ts";
import {
  writeBasicDefinitions,
  writeMetaDataVersion,
  type MetaDataVersionHeading,
} from "./odm-metadata-xml.ts";
import { element, textElement } from "./xml-text.ts";

export const ODM_NAMESPACE = "http://www.cdisc.org/ns/odm/v1.3";

export type OdmExportOptions = {
  /** The export's creation time (tests pin it). */
  now?: Date;
};

type OdmForm = { heading: MetaDataVersionHeading; layout: OdmFormLayout };

const instrumentKey = (instrumentId: number, version: number) =>
  `instrument ${instrumentId} version ${version}`;
const consentKey = (consentId: number, version: number) => `consent ${consentId} version ${version}`;

type Signer = { oid: string; displayName: string; siteId: number };
type SignatureMeaning = { oid: string; role: string; meaning: string };

export async function* writeOdmExport(
  source: ExportSource,
  options: OdmExportOptions = {},
): AsyncIterable<string> {
  const now = options.now ?? new Date();
  const study = studyOid(source.study.id);
  const forms = formsOf(source);
  const { signers, meanings } = source.consentVersions.length > 0 ? await signersOf(source) : emptySigners();

  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield (
    `<ODM xmlns="${ODM_NAMESPACE}" FileType="Snapshot" ODMVersion="1.3.2"` +
    ` FileOID="${`clinro.study-${source.study.id}.${now.getTime()}`}"` +
    ` CreationDateTime="${now.toISOString()}" Originator="ClinRO portal" SourceSystem="clinro">\n`
  );

  yield `<Study OID="${study}">`;
  yield element("GlobalVariables", {}, [
    textElement("StudyName", source.study.name),
    textElement("StudyDescription", source.study.name),
    textElement("ProtocolName", source.study.name),
  ]);
  yield writeBasicDefinitions([...new Set([...forms.values()].flatMap((form) => form.layout.units))]);
  for (const form of forms.values()) yield `\n${writeMetaDataVersion(form.heading, form.layout)}`;
  yield "\n</Study>\n";

  yield writeAdminData(source, study, [...forms.values()], signers, meanings, now);

  yield* writeSubmissions(source, study, forms);
  yield* writeConsentSignings(source, study, forms);
  yield "</ODM>\n";
}

function formsOf(source: ExportSource): Map<string, OdmForm> {
  const forms = new Map<string, OdmForm>();
  for (const version of source.instrumentVersions) {
    const formKey = instrumentFormKey(version.slug);
    forms.set(instrumentKey(version.instrumentId, version.versionNumber), {
      heading: {
        oid: metaDataVersionOid(formKey, version.versionNumber),
        name: `${version.name}, version ${version.versionNumber}`,
        studyEventOid: INSTRUMENT_EVENT_OID,
        studyEventName: "Instrument completions",
        formOid: formOid(formKey),
        formName: nonEmpty(version.name, version.slug),
      },
      layout: layoutForm(formKey, version.definition),
    });
  }
  for (const version of source.consentVersions) {
    const formKey = consentFormKey(version.consentId);
    forms.set(consentKey(version.consentId, version.version), {
      heading: {
        oid: metaDataVersionOid(formKey, version.version),
        name: `${version.title}, version ${version.version}`,
        studyEventOid: CONSENT_EVENT_OID,
        studyEventName: "Informed consent",
        formOid: formOid(formKey),
        formName: nonEmpty(version.title, `Consent ${version.consentId}`),
      },
      layout: layoutForm(formKey, version.definition),
    });
  }
  return forms;
}

/** ODM names may not be empty: a blank one is written as the fallback. */
function nonEmpty(text: string, fallback: string) {
  return text.trim() === "" ? fallback : text;
}

function emptySigners() {
  return { signers: new Map<string, Signer>(), meanings: new Map<string, SignatureMeaning>() };
}

/**
 * AdminData comes before ClinicalData, so the participants and caregivers who signed, and the
 * meanings their signatures carry, are read in a first pass over the consent sessions (a few
 * per participant: small beside the submissions).
 */
async function signersOf(source: ExportSource) {
  const { signers, meanings } = emptySigners();
  const addMeaning = (role: string, meaning: string) => {
    const oid = signatureDefOid(role, meaning);
    if (!meanings.has(oid)) meanings.set(oid, { oid, role, meaning });
  };
  for (const [role, meaning] of Object.entries(SIGNATURE_MEANINGS)) addMeaning(role, meaning);
  for await (const signing of source.consentSignings()) {
    for (const signature of signing.signatures) {
      addMeaning(signature.role, signature.meaning);
      if (signature.signerUserId !== null) continue;
      const oid = signerOid(signing.participant.id, signature.role);
      if (signers.has(oid)) continue;
      const who =
        signature.role === "participant" ? "Participant" : `${capitalised(signature.role)} of participant`;
      signers.set(oid, {
        oid,
        displayName: `${who} ${subjectKeyOf(signing.participant)}`,
        siteId: signing.participant.siteId,
      });
    }
  }
  return { signers, meanings };
}

function capitalised(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function writeAdminData(
  source: ExportSource,
  study: string,
  forms: OdmForm[],
  signers: Map<string, Signer>,
  meanings: Map<string, SignatureMeaning>,
  now: Date,
): string {
  const users = source.users.map((user) =>
    element("User", { OID: userOid(user.id), UserType: "Investigator" }, [
      textElement("LoginName", user.email),
      textElement("DisplayName", user.name || user.email),
      textElement("FullName", user.name || user.email),
      textElement("Email", user.email),
    ]),
  );
  const signerUsers = [...signers.values()].map((signer) =>
    element("User", { OID: signer.oid, UserType: "Other" }, [
      textElement("DisplayName", signer.displayName),
      element("LocationRef", { LocationOID: locationOid(signer.siteId) }),
    ]),
  );
  const effectiveDate = now.toISOString().slice(0, 10);
  // A Location must name at least one MetaDataVersion; with none in the export, there is no data to locate.
  const locations =
    forms.length === 0
      ? []
      : source.sites.map((site) =>
          element(
            "Location",
            {
              OID: locationOid(site.id),
              Name: nonEmpty(site.label, `Site ${site.id}`),
              LocationType: "Site",
            },
            forms.map((form) =>
              element("MetaDataVersionRef", {
                StudyOID: study,
                MetaDataVersionOID: form.heading.oid,
                EffectiveDate: effectiveDate,
              }),
            ),
          ),
        );
  const signatureDefs = [...meanings.values()].map((meaning) =>
    element("SignatureDef", { OID: meaning.oid, Methodology: "Electronic" }, [
      textElement("Meaning", meaning.meaning),
      textElement(
        "LegalReason",
        `Electronic signature of the ${meaning.role} under 21 CFR Part 11 (11.50: printed name, date and time, meaning)`,
      ),
    ]),
  );
  const content = [...users, ...signerUsers, ...locations, ...signatureDefs];
  return `${element("AdminData", { StudyOID: study }, content.length === 0 ? "" : `\n${content.join("\n")}\n`)}\n`;
}

/**
 * ODM's SubjectKey must not be empty; a participant enrolled without a subject id is keyed by
 * the portal's participant id instead.
 */
export function subjectKeyOf(participant: { id: number; subjectId: string }): string {
  return participant.subjectId.trim() === "" ? `participant-${participant.id}` : participant.subjectId;
}

/** One participant's forms of one definition version, as one ClinicalData. */
function clinicalData(
  study: string,
  form: OdmForm,
  participant: ExportSubmission["participant"],
  formData: string[],
) {
  return (
    `<ClinicalData StudyOID="${study}" MetaDataVersionOID="${form.heading.oid}">` +
    element("SubjectData", { SubjectKey: subjectKeyOf(participant) }, [
      element("SiteRef", { LocationOID: locationOid(participant.siteId) }),
      element("StudyEventData", { StudyEventOID: form.heading.studyEventOid }, formData.join("\n")),
    ]) +
    "</ClinicalData>\n"
  );
}

/**
 * Groups a stream of records by participant (the stream arrives grouped by participant) and
 * yields, per participant, one ClinicalData per definition version their records belong to.
 */
async function* byParticipant<Collected extends { participant: ExportSubmission["participant"] }>(
  records: AsyncIterable<Collected>,
  study: string,
  formKeyOf: (record: Collected) => string,
  write: (record: Collected, form: OdmForm) => string,
  forms: Map<string, OdmForm>,
): AsyncIterable<string> {
  let participant: Collected["participant"] | undefined;
  let pending = new Map<string, string[]>();
  const flush = function* () {
    if (!participant) return;
    for (const [key, formData] of pending) yield clinicalData(study, forms.get(key)!, participant, formData);
    pending = new Map();
  };
  for await (const record of records) {
    if (participant?.id !== record.participant.id) {
      yield* flush();
      participant = record.participant;
    }
    const key = formKeyOf(record);
    const form = forms.get(key);
    if (!form) throw new Error(`The export source gave a record of ${key}, which its metadata does not hold`);
    const list = pending.get(key) ?? [];
    list.push(write(record, form));
    pending.set(key, list);
  }
  yield* flush();
}

function writeSubmissions(source: ExportSource, study: string, forms: Map<string, OdmForm>) {
  return byParticipant(
    source.submissions("by-participant"),
    study,
    (submission) => instrumentKey(submission.instrumentId, submission.versionNumber),
    (submission, form) => {
      const started = submission.deviceStartedAt
        ? `started on the device at ${submission.deviceStartedAt}, `
        : "";
      return writeFormData(form.layout, {
        formOid: form.heading.formOid,
        repeatKey: String(submission.id),
        records: submission.answers,
        scores: new Map(submission.scores.map((score) => [score.id, score.final_value])),
        audit: {
          userOid: userOid(submission.completedBy),
          locationOid: locationOid(submission.participant.siteId),
          storedAt: submission.receivedAt,
          sourceId:
            `ClinRO portal submission ${submission.id}: ${started}completed on the device at ` +
            `${submission.deviceCompletedAt.toISOString()}; ${submission.browserInfo}`,
        },
      });
    },
    forms,
  );
}

function writeConsentSignings(source: ExportSource, study: string, forms: Map<string, OdmForm>) {
  return byParticipant(
    source.consentSignings(),
    study,
    (signing: ExportConsentSigning) => consentKey(signing.consentId, signing.version),
    (signing, form) => {
      const refs: OdmSignatureRefs = {
        userOid: (signature: ExportSignature) =>
          signature.signerUserId !== null
            ? userOid(signature.signerUserId)
            : signerOid(signing.participant.id, signature.role),
        // The first pass declared a SignatureDef for every role and meaning these signatures carry.
        signatureDefOid: (signature: ExportSignature) => signatureDefOid(signature.role, signature.meaning),
      };
      return writeFormData(form.layout, {
        formOid: form.heading.formOid,
        repeatKey: String(signing.id),
        records: signing.records,
        scores: new Map(),
        audit: {
          userOid: userOid(signing.userId),
          locationOid: locationOid(signing.participant.siteId),
          storedAt: signing.receivedAt,
          sourceId:
            `ClinRO portal consent session ${signing.id} (${signing.endpoint}): completed on the device at ` +
            `${signing.deviceCompletedAt.toISOString()}; the participant's consent status: ${signing.status}`,
        },
        signatures: { list: signing.signatures, refs },
      });
    },
    forms,
  );
}
