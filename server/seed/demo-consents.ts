/**
 * The demo's consents: only studies with newConsentEnabled have them (study 101, MDD-301). The
 * main informed consent (server/seed/consents/mdd301-main-consent.json: participant,
 * clinician and witness signatures, a consent decision, prompts, a Spanish summary) published
 * as version 1 and then version 2, and the optional genetic sub-study consent (version 1).
 * Definitions go through the same import as `npx clinro consent import`.
 *
 * Every participant's status is reached the way the portal reaches it: through real signings
 * (server/consents/consent-signings.ts, hashed and verifiable) by the coordinator and the
 * witness, with drawn participant signatures (a small PNG, uploaded for the participant) or
 * typed ones. The seed checks that the status it reached is the one statusOf asked for.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inArray } from "drizzle-orm";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { questionOf } from "../../core/survey-engine/definition-lookup.ts";
import { consentVersionOf, importConsent } from "../consents/consent-definitions.ts";
import {
  prepareSigning,
  signingRow,
  type NewSigning,
  type PreparedSignature,
} from "../consents/consent-signings.ts";
import type { Database } from "../db/client.ts";
import {
  consentParticipants,
  consentSignatures,
  consentSignings,
  participants,
  uploadedFileContents,
  uploadedFiles,
  users,
} from "../db/schema.ts";
import { sha256Hex } from "../files/file-store.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const SEED_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "consents");
/** The drawn signature every seeded drawn participant signature shows. */
export const DEMO_SIGNATURE_PNG = path.join(SEED_DIR, "drawn-signature.png");
/** The sites of MDD-301 are on the US east coast: the devices' zone and offset in the demo. */
const DEMO_TIME_ZONE = "America/New_York";
const DEMO_OFFSET_MINUTES = -5 * 60;

export type DemoConsentStatus =
  "awaiting_participant" | "awaiting_clinro" | "awaiting_witness" | "complete" | "declined";

type DemoConsent = {
  key: "main" | "genetic";
  file: string;
  title: string;
  /** The latest version; earlier versions are published before it. */
  version: number;
  deployedDaysAgo: number;
  /** The status of the participant at this index of the study, or null: not offered to them. */
  statusOf: (index: number) => DemoConsentStatus | null;
};

export const DEMO_CONSENTS: DemoConsent[] = [
  {
    key: "main",
    file: "mdd301-main-consent.json",
    title: "Main Study Informed Consent",
    version: 2,
    deployedDaysAgo: 45,
    // Most have signed (the study asks consent first: only they have been rated), the first
    // participant among them; some still await the clinician, the participant or the witness; a
    // few declined. Participants alternate between the two sites, so each status appears in both.
    statusOf: (index) => {
      switch (index % 16) {
        case 2:
        case 9:
          return "awaiting_clinro";
        case 3:
        case 10:
          return "awaiting_participant";
        case 5:
        case 12:
          return "awaiting_witness";
        case 6:
        case 15:
          return index % 32 === index % 16 ? "declined" : "complete";
        default:
          return "complete";
      }
    },
  },
  {
    key: "genetic",
    file: "mdd301-genetic-substudy.json",
    title: "Optional Genetic Sub-study Consent",
    version: 1,
    deployedDaysAgo: 20,
    // Optional: some declined, some not asked yet, a few waiting for the clinician's signature;
    // each status in both sites (participants alternate between them).
    statusOf: (index) => {
      switch (index % 12) {
        case 0:
        case 1:
        case 6:
        case 7:
          return "complete";
        case 2:
        case 9:
          return "declined";
        case 3:
        case 8:
          return "awaiting_clinro";
        case 4:
        case 11:
          return "awaiting_participant";
        default:
          return null;
      }
    },
  },
];

/**
 * Whether the participant at this index of a study that asks consent first may have been rated:
 * each consent that is not optional (its definition says so) is complete for them.
 */
export function demoParticipantConsented(index: number): boolean {
  return DEMO_CONSENTS.every((demo) => {
    const status = demo.statusOf(index);
    return status === null || status === "complete" || demoConsentJson(demo.file).optional === true;
  });
}

export function demoConsentJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(SEED_DIR, file), "utf8")) as Record<string, unknown>;
}

/** An ISO time with the demo devices' offset, as a tablet in the site's zone would write it. */
function deviceTime(at: Date) {
  const local = new Date(at.getTime() + DEMO_OFFSET_MINUTES * 60 * 1000).toISOString().slice(0, 19);
  const sign = DEMO_OFFSET_MINUTES < 0 ? "-" : "+";
  const minutes = Math.abs(DEMO_OFFSET_MINUTES);
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

type Person = { id: number; fname: string; lname: string };
type Staff = { id: number; name: string };

/** The roles who sign what, for one wanted status. */
function sessionsFor(status: DemoConsentStatus, hasWitness: boolean) {
  switch (status) {
    case "awaiting_participant":
      return { participant: false, clinician: false, witness: false, decline: false };
    case "declined":
      return { participant: false, clinician: true, witness: false, decline: true };
    case "awaiting_clinro":
      return { participant: true, clinician: false, witness: false, decline: false };
    case "awaiting_witness":
      return { participant: true, clinician: true, witness: false, decline: false };
    case "complete":
      return { participant: true, clinician: true, witness: hasWitness, decline: false };
  }
}

/** Seeds the demo consents of one study and its participants' signings. */
export async function seedDemoConsents(
  tx: Tx,
  studyId: number,
  participantIds: number[],
  now = Date.now(),
): Promise<void> {
  const people = participantIds.length
    ? await tx
        .select({ id: participants.id, fname: participants.fname, lname: participants.lname })
        .from(participants)
        .where(inArray(participants.id, participantIds))
    : [];
  const personById = new Map(people.map((person) => [person.id, person]));
  const staffRows = await tx
    .select({ id: users.id, name: users.name, username: users.username })
    .from(users)
    .where(inArray(users.username, ["coordinator@demo.test", "witness@demo.test"]));
  const clinician = staffRows.find((row) => row.username === "coordinator@demo.test")!;
  const witness = staffRows.find((row) => row.username === "witness@demo.test")!;
  const signatureImage = new Uint8Array(readFileSync(DEMO_SIGNATURE_PNG));
  const signatureSha256 = sha256Hex(signatureImage);

  for (const demo of DEMO_CONSENTS) {
    const json = demoConsentJson(demo.file);
    const deployed = new Date(now - demo.deployedDaysAgo * DAY_MS);
    let consentId = 0;
    // Earlier versions first, a month apart: what the participants signed is the latest.
    for (let version = 1; version <= demo.version; version += 1) {
      const outcome = await importConsent(tx, {
        studyId,
        json: { ...json, consent_version: version },
        now: new Date(deployed.getTime() - (demo.version - version) * 30 * DAY_MS),
        offerToStudy: false,
      });
      consentId = outcome.consentId;
    }
    const published = await consentVersionOf(tx, consentId, demo.version);
    const definition = published!.definition;
    const hasWitness = Object.values(definition.questions).some(
      (question) => question.attributes.signer_role === "witness",
    );

    // Prepared in memory (hashed exactly as the submission call does), then stored in bulk: one
    // insert per table keeps the demo seed quick, and row order is the signing order.
    const offers: (typeof consentParticipants.$inferInsert)[] = [];
    const signings: NewSigning[] = [];
    const signatures: { signing: number; signature: PreparedSignature }[] = [];
    const uploads: (typeof uploadedFiles.$inferInsert)[] = [];
    for (const [index, participantId] of participantIds.entries()) {
      const status = demo.statusOf(index);
      if (status === null) continue;
      const person = personById.get(participantId)!;
      const plan = sessionsFor(status, hasWitness);
      const key = { consentId, participantId, version: demo.version };
      const earlier = { records: [] as AnswerRecord[][], hashes: [] as string[] };
      let reached: DemoConsentStatus = "awaiting_participant";
      const add = (signing: NewSigning) => {
        const prepared = prepareSigning(earlier, signing);
        signings.push(signing);
        for (const signature of prepared.signatures) {
          signatures.push({ signing: signings.length - 1, signature });
          earlier.hashes.push(signature.hash);
        }
        earlier.records.push(signing.records);
        reached = prepared.status;
      };
      const signedAt = new Date(deployed.getTime() + (1 + ((index * 7) % 15)) * DAY_MS + 10 * HOUR_MS);
      if (plan.participant || plan.decline) {
        const session = participantSession(definition, person, plan, clinician, signedAt, index);
        if (session.file) {
          uploads.push({
            userId: clinician.id,
            participantId,
            moduleName: "consent",
            platform: "clinro",
            fileName: session.file.fileName,
            storedName: session.file.storedName,
            contentType: "image/png",
            sizeBytes: signatureImage.length,
            createdAt: signedAt,
          });
        }
        add(
          demoSigning(key, definition, {
            user: clinician,
            endpoint: "clinro",
            records: session.records,
            at: new Date(signedAt.getTime() + 20 * 60 * 1000),
          }),
        );
      }
      if (plan.witness) {
        const at = new Date(signedAt.getTime() + DAY_MS + 2 * HOUR_MS);
        const records = definition.order.flatMap((questionId) => {
          const question = questionOf(definition, questionId)!;
          return question.attributes.signer_role === "witness"
            ? [makeRecord(question, [typedSignature(question.id, witness.name, at)], at)]
            : [];
        });
        add(demoSigning(key, definition, { user: witness, endpoint: "witness", records, at }));
      }
      if (reached !== status) {
        throw new Error(`Demo consent ${demo.key}: participant ${index} is ${reached}, not ${status}`);
      }
      offers.push({ consentId, participantId, version: demo.version, status });
    }
    if (offers.length > 0) await tx.insert(consentParticipants).values(offers);
    if (uploads.length > 0) {
      const stored = await tx.insert(uploadedFiles).values(uploads).returning({ id: uploadedFiles.id });
      await tx
        .insert(uploadedFileContents)
        .values(
          stored.map((file) => ({ fileId: file.id, content: signatureImage, sha256: signatureSha256 })),
        );
    }
    const signingIds =
      signings.length > 0
        ? await tx
            .insert(consentSignings)
            .values(signings.map(signingRow))
            .returning({ id: consentSignings.id })
        : [];
    if (signatures.length > 0) {
      await tx.insert(consentSignatures).values(
        signatures.map(({ signing, signature }) => ({
          signingId: signingIds[signing]!.id,
          consentId,
          participantId: signings[signing]!.participantId,
          version: demo.version,
          ...signature,
        })),
      );
    }
  }
}

function typedSignature(questionId: string, name: string, at: Date): AnswerEntry {
  return {
    label: name,
    value: name,
    question: questionId,
    signature_type: "text",
    signed_date: deviceTime(at),
  };
}

/** The records of the clinician's session with the participant on the tablet. */
function participantSession(
  definition: SurveyDefinition,
  person: Person,
  plan: ReturnType<typeof sessionsFor>,
  clinician: Staff,
  at: Date,
  index: number,
) {
  const records: AnswerRecord[] = [];
  let file: { fileName: string; storedName: string } | undefined;
  const printed = `${person.fname} ${person.lname}`;
  for (const questionId of definition.order) {
    const question = questionOf(definition, questionId)!;
    const role = question.attributes.signer_role;
    const when = new Date(at.getTime() + records.length * 60 * 1000);
    if (question.attributes.consent_decision) {
      const choiceId = plan.decline ? "decline" : "agree";
      const choice = question.choices?.[choiceId];
      records.push(
        makeRecord(
          question,
          [{ label: choice?.label ?? choiceId, value: choiceId, choice_id: choiceId }],
          when,
        ),
      );
    } else if (role === "participant" && plan.participant) {
      // Two in three drew their signature on the tablet; the others typed their name.
      if (index % 3 !== 0) {
        const fileName = `consent_${person.id}_${question.id}_${when.getTime()}.png`;
        file = { fileName, storedName: `demo-${person.id}-${question.id}.png` };
        records.push(
          makeRecord(
            question,
            [
              {
                label: printed,
                value: fileName,
                question: question.id,
                signature_type: "draw",
                signed_date: deviceTime(when),
              },
            ],
            when,
          ),
        );
      } else {
        records.push(makeRecord(question, [typedSignature(question.id, printed, when)], when));
      }
    } else if (role === "clinro" && plan.clinician) {
      records.push(makeRecord(question, [typedSignature(question.id, clinician.name, when)], when));
    }
  }
  return { records, file };
}

/** One demo session as the submission call would store it. */
function demoSigning(
  key: { consentId: number; participantId: number; version: number },
  definition: SurveyDefinition,
  session: { user: Staff; endpoint: "clinro" | "witness"; records: AnswerRecord[]; at: Date },
): NewSigning {
  const staffSignature = session.records.find((record) => {
    const role = definition.questions[record.id]?.attributes.signer_role;
    return role === "clinro" || role === "witness";
  });
  const capturedAt = staffSignature?.answer[0]?.signed_date;
  return {
    ...key,
    definition,
    userId: session.user.id,
    userName: session.user.name,
    endpoint: session.endpoint,
    records: session.records,
    completion: session.at,
    browserInfo: "ClinRO demo seed",
    signing: capturedAt ? { capturedAt, timeZone: DEMO_TIME_ZONE } : undefined,
    receivedAt: new Date(session.at.getTime() + 5 * 1000),
  };
}
