/**
 * What a study export reads, in one shape for every format (CSV, CDISC ODM 1.3.2, FHIR R4): the
 * study's metadata, held in memory because it is small, and its collected data as async
 * iterables, read from the database in pages so that memory stays flat as a study grows.
 *
 * server/study-export/read-export-source.ts builds it from the database for one ExportScope;
 * the format writers (csv/, odm/, fhir/) only ever see this shape, so each is tested on
 * hand-built sources as well as on a real database.
 */
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import type { ScoredScore } from "../../core/contracts/survey-submission.ts";

/** What the caller asked for: one study, optionally narrowed. An empty list narrows nothing. */
export type ExportScope = {
  studyId: number;
  siteIds?: readonly number[] | undefined;
  instrumentIds?: readonly number[] | undefined;
  /** Inclusive lower bound on the server's receipt time. */
  from?: Date | undefined;
  /** Exclusive upper bound on the server's receipt time. */
  to?: Date | undefined;
};

export type ExportStudy = { id: number; name: string };

export type ExportSite = {
  id: number;
  label: string;
  treeLevel: number;
  isVirtual: boolean;
  retired: boolean;
};

/** A staff member who completed, signed or witnessed something in the export. */
export type ExportUser = { id: number; email: string; name: string };

/** One definition version of one instrument (one MetaDataVersion / Questionnaire version). */
export type ExportInstrumentVersion = {
  instrumentId: number;
  slug: string;
  /** The instrument's display name. */
  name: string;
  instrumentType: string;
  versionNumber: number;
  definition: SurveyDefinition;
};

/** One published version of one consent. */
export type ExportConsentVersion = {
  consentId: number;
  title: string;
  version: number;
  definition: SurveyDefinition;
};

export type ExportParticipant = { id: number; subjectId: string; siteId: number };

/** One completed instrument as received. */
export type ExportSubmission = {
  id: number;
  instrumentId: number;
  versionNumber: number;
  participant: ExportParticipant;
  /** The user id of the clinician who completed it (ExportSource.users holds them). */
  completedBy: number;
  /** The device's completion time, as the client reported it. */
  deviceCompletedAt: Date;
  /** When the server stored it. */
  receivedAt: Date;
  /** The device's start time (ISO), when the payload carries one. */
  deviceStartedAt: string | null;
  browserInfo: string;
  answers: AnswerRecord[];
  /** The scores with the final values the server computed. */
  scores: ScoredScore[];
};

/** One consent signature's manifestation (21 CFR 11.50). */
export type ExportSignature = {
  questionId: string;
  /** participant, caregiver, clinro or witness. */
  role: string;
  meaning: string;
  printedName: string;
  signatureType: string;
  signerUserId: number | null;
  /** The device's ISO time with its offset, as sent. */
  capturedAt: string;
  receivedAt: Date;
  timeZone: string;
  hash: string;
  /**
   * The image of a drawn, photographed or chosen signature, when the server holds its bytes;
   * absent for a typed signature and for an upload whose bytes no server imported.
   */
  image?: ExportSignatureImage;
};

/** A signature's uploaded image: its file's extension, and its bytes read when a writer asks. */
export type ExportSignatureImage = {
  /** In lower case, without the dot, as the upload was named (png, jpg, svg...). */
  extension: string;
  bytes: () => Promise<Uint8Array>;
};

/** One consent session (a clinician's or a witness's submission) with its signatures. */
export type ExportConsentSigning = {
  id: number;
  consentId: number;
  version: number;
  participant: ExportParticipant;
  userId: number;
  /** clinro or witness. */
  endpoint: string;
  deviceCompletedAt: Date;
  receivedAt: Date;
  records: AnswerRecord[];
  signatures: ExportSignature[];
  /** The participant's consent status now: awaiting_*, complete or declined. */
  status: string;
};

/**
 * by-form: grouped by instrument then definition version (one CSV file per version);
 * by-participant: grouped by participant (one ODM SubjectData per participant).
 * Within a group, in the order the server received them.
 */
export type SubmissionOrder = "by-form" | "by-participant";

export type ExportSource = {
  scope: ExportScope;
  study: ExportStudy;
  /** The sites in scope. */
  sites: ExportSite[];
  /** Every user who completed, signed or witnessed a record in scope. */
  users: ExportUser[];
  /** Every definition version of the instruments in scope, by instrument then version. */
  instrumentVersions: ExportInstrumentVersion[];
  /** Every published version of the study's consents, by consent then version. */
  consentVersions: ExportConsentVersion[];
  submissions(order: SubmissionOrder): AsyncIterable<ExportSubmission>;
  /** By participant, then consent, then receipt. */
  consentSignings(): AsyncIterable<ExportConsentSigning>;
};
