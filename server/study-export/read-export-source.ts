/**
 * Builds the ExportSource (export-source.ts) of one ExportScope from the database.
 *
 * What is small is read up front: the study, its sites in scope, every definition version of
 * its instruments in scope, its consents' published versions, and the users who completed,
 * signed or witnessed something in scope. What grows with the study (submissions, consent
 * signings) is read in keyset pages of PAGE_SIZE rows when a writer iterates it, never a whole
 * table at once, so an export's memory stays flat however many rows the study holds.
 *
 * Choices where the issue is silent:
 * - ANNOUNCEMENT instruments are left out: they collect no data.
 * - The instrument filter narrows the submissions only; consents are narrowed by site and time.
 * - Receipt time is the server's: instrument_submissions.created_at, consent_signings.received_at.
 * - Scores are the server's final values (instrument_submissions.scores), never the client's.
 */
import { and, asc, eq, gt, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { CONSENT_UPLOAD_MODULE, IMAGE_SIGNATURE_TYPES } from "../../core/contracts/consent-schemas.ts";
import { fileExtension } from "../../core/contracts/files.ts";
import type { AnswerRecord } from "../../core/contracts/survey-answers.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import type { ScoredScore } from "../../core/contracts/survey-submission.ts";
import {
  formatDefinitionProblem,
  parseSurveyDefinition,
} from "../../core/survey-engine/validate-definition.ts";
import type { Database } from "../db/client.ts";
import {
  consentParticipants,
  consentSignatures,
  consentSignings,
  consentVersions,
  consents,
  instrumentDefinitions,
  instrumentSubmissions,
  instruments,
  participants,
  sites,
  studies,
  uploadedFileContents,
  uploadedFiles,
  users,
} from "../db/schema.ts";
import { readFileContents } from "../files/file-store.ts";
import type {
  ExportConsentSigning,
  ExportConsentVersion,
  ExportInstrumentVersion,
  ExportParticipant,
  ExportScope,
  ExportSignature,
  ExportSignatureImage,
  ExportSite,
  ExportSource,
  ExportSubmission,
  ExportUser,
  SubmissionOrder,
} from "./export-source.ts";

/** Rows per page: large enough that round trips cost little, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 500;
/** Participants per page of the by-participant reads (their rows are then read in pages too). */
const PARTICIPANT_PAGE_SIZE = 200;

/** Instruments of this type collect no data: an export has nothing of theirs to say. */
const NO_DATA_INSTRUMENT_TYPE = "ANNOUNCEMENT";

/** The scope asked for names a study that does not exist. */
export class ExportStudyNotFound extends Error {}

/** jsonb read through sql`` arrives parsed from one driver and as text from the other. */
function jsonValue<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

function definitionOf(json: unknown, what: string): SurveyDefinition {
  const parsed = parseSurveyDefinition(json);
  if (!parsed.ok) {
    // Stored definitions were checked when imported: one that no longer parses is a server fault.
    throw new Error(`${what} does not parse: ${parsed.problems.map(formatDefinitionProblem).join("; ")}`);
  }
  return parsed.definition;
}

export async function readExportSource(db: Database, scope: ExportScope): Promise<ExportSource> {
  const [study] = await db
    .select({ id: studies.id, name: studies.name })
    .from(studies)
    .where(eq(studies.id, scope.studyId));
  if (!study) throw new ExportStudyNotFound(`There is no study ${scope.studyId}.`);

  const siteIds = scope.siteIds?.length ? [...scope.siteIds] : undefined;
  const siteRows = await db
    .select({
      id: sites.id,
      label: sites.label,
      treeLevel: sites.treeLevel,
      isVirtual: sites.isVirtual,
      retiredAt: sites.retiredAt,
    })
    .from(sites)
    .where(and(eq(sites.studyId, scope.studyId), siteIds ? inArray(sites.id, siteIds) : undefined))
    .orderBy(asc(sites.id));
  const exportSites: ExportSite[] = siteRows.map((site) => ({
    id: site.id,
    label: site.label,
    treeLevel: site.treeLevel,
    isVirtual: site.isVirtual,
    retired: site.retiredAt !== null,
  }));

  const instrumentRows = await db
    .select({
      instrumentId: instruments.id,
      slug: instruments.slug,
      name: instruments.displayName,
      instrumentType: instruments.instrumentType,
      versionNumber: instrumentDefinitions.versionNumber,
      definition: instrumentDefinitions.definition,
    })
    .from(instruments)
    .innerJoin(instrumentDefinitions, eq(instrumentDefinitions.instrumentId, instruments.id))
    .where(
      and(
        eq(instruments.studyId, scope.studyId),
        ne(instruments.instrumentType, NO_DATA_INSTRUMENT_TYPE),
        scope.instrumentIds?.length ? inArray(instruments.id, [...scope.instrumentIds]) : undefined,
      ),
    )
    .orderBy(asc(instruments.id), asc(instrumentDefinitions.versionNumber));
  const instrumentVersions: ExportInstrumentVersion[] = instrumentRows.map((row) => ({
    instrumentId: row.instrumentId,
    slug: row.slug,
    name: row.name,
    instrumentType: row.instrumentType,
    versionNumber: row.versionNumber,
    definition: definitionOf(row.definition, `Instrument ${row.instrumentId} version ${row.versionNumber}`),
  }));
  const instrumentIds = [...new Set(instrumentVersions.map((version) => version.instrumentId))];

  const consentRows = await db
    .select({
      consentId: consents.id,
      title: consents.title,
      version: consentVersions.version,
      definition: consentVersions.definition,
    })
    .from(consents)
    .innerJoin(consentVersions, eq(consentVersions.consentId, consents.id))
    .where(eq(consents.studyId, scope.studyId))
    .orderBy(asc(consents.id), asc(consentVersions.version));
  const consentVersionList: ExportConsentVersion[] = consentRows.map((row) => ({
    consentId: row.consentId,
    title: row.title,
    version: row.version,
    definition: definitionOf(row.definition, `Consent ${row.consentId} version ${row.version}`),
  }));

  /** The participant conditions every read shares: the study, and the sites asked for. */
  const participantInScope = and(
    eq(participants.studyId, scope.studyId),
    siteIds ? inArray(participants.siteId, siteIds) : undefined,
  );
  const submissionsInScope = (): SQL | undefined =>
    and(
      inArray(instrumentSubmissions.instrumentId, instrumentIds),
      participantInScope,
      scope.from ? gte(instrumentSubmissions.createdAt, scope.from) : undefined,
      scope.to ? lt(instrumentSubmissions.createdAt, scope.to) : undefined,
    );
  const signingsInScope = (): SQL | undefined =>
    and(
      participantInScope,
      scope.from ? gte(consentSignings.receivedAt, scope.from) : undefined,
      scope.to ? lt(consentSignings.receivedAt, scope.to) : undefined,
    );

  const exportUsers = await readUsers(db, {
    submissions: instrumentIds.length > 0 ? submissionsInScope() : undefined,
    signings: signingsInScope(),
  });

  const submissionColumns = {
    id: instrumentSubmissions.id,
    instrumentId: instrumentSubmissions.instrumentId,
    versionNumber: instrumentSubmissions.versionNumber,
    participantId: instrumentSubmissions.participantId,
    subjectId: participants.subjectId,
    siteId: participants.siteId,
    completedBy: instrumentSubmissions.submittedBy,
    deviceCompletedAt: instrumentSubmissions.completedAt,
    receivedAt: instrumentSubmissions.createdAt,
    // Only what an export uses: the payload also holds a copy of the whole definition.
    answers: sql<unknown>`${instrumentSubmissions.payload} -> 'answers'`,
    startTime: sql<string | null>`${instrumentSubmissions.payload} ->> 'start_time'`,
    browserInfo: sql<string | null>`${instrumentSubmissions.payload} ->> 'browser_info'`,
    scores: instrumentSubmissions.scores,
  };
  type SubmissionRow = {
    id: number;
    instrumentId: number;
    versionNumber: number;
    participantId: number;
    subjectId: string;
    siteId: number;
    completedBy: number;
    deviceCompletedAt: Date;
    receivedAt: Date;
    answers: unknown;
    startTime: string | null;
    browserInfo: string | null;
    scores: unknown;
  };
  const toSubmission = (row: SubmissionRow): ExportSubmission => ({
    id: row.id,
    instrumentId: row.instrumentId,
    versionNumber: row.versionNumber,
    participant: { id: row.participantId, subjectId: row.subjectId, siteId: row.siteId },
    completedBy: row.completedBy,
    deviceCompletedAt: row.deviceCompletedAt,
    receivedAt: row.receivedAt,
    deviceStartedAt: row.startTime,
    browserInfo: row.browserInfo ?? "",
    answers: jsonValue<AnswerRecord[] | null>(row.answers) ?? [],
    scores: jsonValue<ScoredScore[] | null>(row.scores) ?? [],
  });
  const submissionPage = (where: SQL | undefined, orderBy: SQL[]) =>
    db
      .select(submissionColumns)
      .from(instrumentSubmissions)
      .innerJoin(participants, eq(participants.id, instrumentSubmissions.participantId))
      .where(and(submissionsInScope(), where))
      .orderBy(...orderBy)
      .limit(EXPORT_PAGE_SIZE);

  /**
   * By form: each definition version in turn, its rows in receipt order (the primary key's),
   * a page after the last id read.
   */
  async function* submissionsByForm(): AsyncGenerator<ExportSubmission> {
    for (const version of instrumentVersions) {
      let lastId = 0;
      for (;;) {
        const rows = await submissionPage(
          and(
            eq(instrumentSubmissions.instrumentId, version.instrumentId),
            eq(instrumentSubmissions.versionNumber, version.versionNumber),
            gt(instrumentSubmissions.id, lastId),
          ),
          [asc(instrumentSubmissions.id)],
        );
        for (const row of rows) yield toSubmission(row);
        if (rows.length < EXPORT_PAGE_SIZE) break;
        lastId = rows.at(-1)!.id;
      }
    }
  }

  /**
   * By participant: a page of the study's participants in scope, then their rows (found through
   * the participant index) in pages after the last (participant, id) read.
   */
  async function* submissionsByParticipant(): AsyncGenerator<ExportSubmission> {
    for await (const batch of participantBatches(db, participantInScope)) {
      let last = { participantId: 0, id: 0 };
      for (;;) {
        const rows = await submissionPage(
          and(
            inArray(instrumentSubmissions.participantId, batch),
            or(
              gt(instrumentSubmissions.participantId, last.participantId),
              and(
                eq(instrumentSubmissions.participantId, last.participantId),
                gt(instrumentSubmissions.id, last.id),
              ),
            ),
          ),
          [asc(instrumentSubmissions.participantId), asc(instrumentSubmissions.id)],
        );
        for (const row of rows) yield toSubmission(row);
        if (rows.length < EXPORT_PAGE_SIZE) break;
        const end = rows.at(-1)!;
        last = { participantId: end.participantId, id: end.id };
      }
    }
  }

  async function* submissions(order: SubmissionOrder): AsyncGenerator<ExportSubmission> {
    if (instrumentIds.length === 0) return;
    yield* order === "by-form" ? submissionsByForm() : submissionsByParticipant();
  }

  /** By participant, then consent, then receipt; each page's signatures read in one query. */
  async function* signings(): AsyncGenerator<ExportConsentSigning> {
    for await (const batch of participantBatches(db, participantInScope)) {
      let last = { participantId: 0, consentId: 0, id: 0 };
      for (;;) {
        const rows = await db
          .select({
            id: consentSignings.id,
            consentId: consentSignings.consentId,
            version: consentSignings.version,
            participantId: consentSignings.participantId,
            subjectId: participants.subjectId,
            siteId: participants.siteId,
            userId: consentSignings.userId,
            endpoint: consentSignings.endpoint,
            deviceCompletedAt: consentSignings.completion,
            receivedAt: consentSignings.receivedAt,
            records: consentSignings.records,
            status: consentParticipants.status,
          })
          .from(consentSignings)
          .innerJoin(participants, eq(participants.id, consentSignings.participantId))
          .leftJoin(
            consentParticipants,
            and(
              eq(consentParticipants.consentId, consentSignings.consentId),
              eq(consentParticipants.participantId, consentSignings.participantId),
            ),
          )
          .where(
            and(
              signingsInScope(),
              inArray(consentSignings.participantId, batch),
              sql`(${consentSignings.participantId}, ${consentSignings.consentId}, ${consentSignings.id}) > (${last.participantId}, ${last.consentId}, ${last.id})`,
            ),
          )
          .orderBy(
            asc(consentSignings.participantId),
            asc(consentSignings.consentId),
            asc(consentSignings.id),
          )
          .limit(EXPORT_PAGE_SIZE);
        if (rows.length === 0) break;
        const signatures = await readSignatures(
          db,
          rows.map((row) => row.id),
        );
        for (const row of rows) {
          const participant: ExportParticipant = {
            id: row.participantId,
            subjectId: row.subjectId,
            siteId: row.siteId,
          };
          yield {
            id: row.id,
            consentId: row.consentId,
            version: row.version,
            participant,
            userId: row.userId,
            endpoint: row.endpoint,
            deviceCompletedAt: row.deviceCompletedAt,
            receivedAt: row.receivedAt,
            records: jsonValue<AnswerRecord[] | null>(row.records) ?? [],
            signatures: signatures.get(row.id) ?? [],
            status: row.status ?? "",
          };
        }
        if (rows.length < EXPORT_PAGE_SIZE) break;
        const end = rows.at(-1)!;
        last = { participantId: end.participantId, consentId: end.consentId, id: end.id };
      }
    }
  }

  return {
    scope,
    study,
    sites: exportSites,
    users: exportUsers,
    instrumentVersions,
    consentVersions: consentVersionList,
    submissions,
    consentSignings: signings,
  };
}

/** The ids of the participants in scope, a page at a time, in id order. */
async function* participantBatches(db: Database, inScope: SQL | undefined): AsyncGenerator<number[]> {
  let lastId = 0;
  for (;;) {
    const rows = await db
      .select({ id: participants.id })
      .from(participants)
      .where(and(inScope, gt(participants.id, lastId)))
      .orderBy(asc(participants.id))
      .limit(PARTICIPANT_PAGE_SIZE);
    if (rows.length > 0) yield rows.map((row) => row.id);
    if (rows.length < PARTICIPANT_PAGE_SIZE) return;
    lastId = rows.at(-1)!.id;
  }
}

async function readSignatures(db: Database, signingIds: number[]): Promise<Map<number, ExportSignature[]>> {
  const rows = await db
    .select({
      signingId: consentSignatures.signingId,
      participantId: consentSignatures.participantId,
      questionId: consentSignatures.questionId,
      role: consentSignatures.role,
      meaning: consentSignatures.meaning,
      printedName: consentSignatures.printedName,
      signatureType: consentSignatures.signatureType,
      value: consentSignatures.value,
      signerUserId: consentSignatures.signerUserId,
      capturedAt: consentSignatures.capturedAt,
      receivedAt: consentSignatures.receivedAt,
      timeZone: consentSignatures.timeZone,
      hash: consentSignatures.hash,
    })
    .from(consentSignatures)
    .where(inArray(consentSignatures.signingId, signingIds))
    .orderBy(asc(consentSignatures.signingId), asc(consentSignatures.id));
  const images = await readSignatureImages(
    db,
    rows.filter((row) => IMAGE_SIGNATURE_TYPES.has(row.signatureType)),
  );
  const bySigning = new Map<number, ExportSignature[]>();
  for (const { signingId, participantId, value, ...signature } of rows) {
    const list = bySigning.get(signingId) ?? [];
    const image = IMAGE_SIGNATURE_TYPES.has(signature.signatureType)
      ? images.get(uploadKey(participantId, value))
      : undefined;
    list.push(image ? { ...signature, image } : signature);
    bySigning.set(signingId, list);
  }
  return bySigning;
}

const uploadKey = (participantId: number, fileName: string) => `${participantId}/${fileName}`;

/**
 * The images that image signatures name: the participant's consent upload of that file name
 * (the latest, as the consent PDF shows), when its bytes are in the database. The bytes are read
 * only when a writer asks for them, one image at a time, so a page of signatures costs no memory.
 */
async function readSignatureImages(
  db: Database,
  signatures: readonly { participantId: number; value: string }[],
): Promise<Map<string, ExportSignatureImage>> {
  const images = new Map<string, ExportSignatureImage>();
  if (signatures.length === 0) return images;
  const files = await db
    .select({
      id: uploadedFiles.id,
      participantId: uploadedFiles.participantId,
      fileName: uploadedFiles.fileName,
    })
    .from(uploadedFiles)
    .innerJoin(uploadedFileContents, eq(uploadedFileContents.fileId, uploadedFiles.id))
    .where(
      and(
        eq(uploadedFiles.moduleName, CONSENT_UPLOAD_MODULE),
        inArray(uploadedFiles.participantId, [...new Set(signatures.map((row) => row.participantId))]),
        inArray(uploadedFiles.fileName, [...new Set(signatures.map((row) => row.value))]),
      ),
    )
    .orderBy(asc(uploadedFiles.id));
  for (const file of files) {
    images.set(uploadKey(file.participantId, file.fileName), {
      extension: fileExtension(file.fileName),
      bytes: async () => {
        const content = (await readFileContents(db, [file.id])).get(file.id);
        if (!content) throw new Error(`The bytes of uploaded file ${file.id} are gone`);
        return content;
      },
    });
  }
  return images;
}

/** Everyone who completed a submission, sent a consent session or signed one, in scope. */
async function readUsers(
  db: Database,
  where: { submissions: SQL | undefined; signings: SQL | undefined },
): Promise<ExportUser[]> {
  const ids = new Set<number>();
  if (where.submissions) {
    const completers = await db
      .selectDistinct({ id: instrumentSubmissions.submittedBy })
      .from(instrumentSubmissions)
      .innerJoin(participants, eq(participants.id, instrumentSubmissions.participantId))
      .where(where.submissions);
    for (const row of completers) ids.add(row.id);
  }
  const senders = await db
    .selectDistinct({ id: consentSignings.userId })
    .from(consentSignings)
    .innerJoin(participants, eq(participants.id, consentSignings.participantId))
    .where(where.signings);
  for (const row of senders) ids.add(row.id);
  const signers = await db
    .selectDistinct({ id: consentSignatures.signerUserId })
    .from(consentSignatures)
    .innerJoin(consentSignings, eq(consentSignings.id, consentSignatures.signingId))
    .innerJoin(participants, eq(participants.id, consentSignings.participantId))
    .where(where.signings);
  for (const row of signers) if (row.id !== null) ids.add(row.id);
  if (ids.size === 0) return [];
  return db
    .select({ id: users.id, email: users.username, name: users.name })
    .from(users)
    .where(inArray(users.id, [...ids]))
    .orderBy(asc(users.id));
}

/** A filter naming something outside the study: the query field and why. */
export type ExportScopeIssue = { path: "site_id" | "instrument_id"; message: string };

/**
 * What in the scope's filters the study does not hold: a site of another study (or none), an
 * instrument of another study or one that collects no data. Empty when the scope is sound.
 */
export async function exportScopeIssues(db: Database, scope: ExportScope): Promise<ExportScopeIssue[]> {
  const issues: ExportScopeIssue[] = [];
  if (scope.siteIds?.length) {
    const found = await db
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.studyId, scope.studyId), inArray(sites.id, [...scope.siteIds])));
    const known = new Set(found.map((row) => row.id));
    const unknown = scope.siteIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      issues.push({
        path: "site_id",
        message: `${unknown.join(", ")} ${unknown.length === 1 ? "is not a site" : "are not sites"} of study ${scope.studyId}`,
      });
    }
  }
  if (scope.instrumentIds?.length) {
    const found = await db
      .select({ id: instruments.id })
      .from(instruments)
      .where(
        and(
          eq(instruments.studyId, scope.studyId),
          ne(instruments.instrumentType, NO_DATA_INSTRUMENT_TYPE),
          inArray(instruments.id, [...scope.instrumentIds]),
        ),
      );
    const known = new Set(found.map((row) => row.id));
    const unknown = scope.instrumentIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      issues.push({
        path: "instrument_id",
        message: `${unknown.join(", ")} ${unknown.length === 1 ? "is not an instrument" : "are not instruments"} of study ${scope.studyId} that collect data`,
      });
    }
  }
  return issues;
}
