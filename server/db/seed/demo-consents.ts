/**
 * The demo's consents: only studies with newConsentEnabled have them (study 101). The main
 * informed consent (version 2) and an optional genetic sub-study consent (version 1), with a
 * realistic mix of statuses over the study's participants so that both have missing consents.
 */
import type { Database } from "../client.ts";
import { consentParticipants, consents } from "../schema.ts";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

const DAY_MS = 24 * 60 * 60 * 1000;

export type DemoConsentStatus =
  "awaiting_participant" | "awaiting_clinro" | "awaiting_witness" | "complete" | "declined";

type DemoConsent = {
  key: "main" | "genetic";
  title: string;
  version: number;
  deployedDaysAgo: number;
  /** The status of the participant at this index of the study, or null: not offered to them. */
  statusOf: (index: number) => DemoConsentStatus | null;
};

export const DEMO_CONSENTS: DemoConsent[] = [
  {
    key: "main",
    title: "Main Study Informed Consent",
    version: 2,
    deployedDaysAgo: 45,
    // Most have signed; three in eight still await the clinician, the participant or the witness.
    statusOf: (index) => {
      switch (index % 8) {
        case 0:
          return "awaiting_clinro";
        case 3:
          return "awaiting_participant";
        case 5:
          return "awaiting_witness";
        default:
          return "complete";
      }
    },
  },
  {
    key: "genetic",
    title: "Optional Genetic Sub-study Consent",
    version: 1,
    deployedDaysAgo: 20,
    // Optional: some declined, some not asked yet, a few waiting for the clinician's signature.
    statusOf: (index) => {
      switch (index % 6) {
        case 0:
        case 1:
          return "complete";
        case 2:
          return "declined";
        case 3:
          return "awaiting_clinro";
        case 4:
          return "awaiting_participant";
        default:
          return null;
      }
    },
  },
];

/** Seeds the demo consents of one study and its participants' statuses. */
export async function seedDemoConsents(tx: Tx, studyId: number, participantIds: number[], now = Date.now()) {
  const created = await tx
    .insert(consents)
    .values(
      DEMO_CONSENTS.map((consent) => ({
        studyId,
        title: consent.title,
        type: "CONSENT",
        version: consent.version,
        dateDeployed: new Date(now - consent.deployedDaysAgo * DAY_MS),
      })),
    )
    .returning({ id: consents.id });
  const rows: (typeof consentParticipants.$inferInsert)[] = [];
  DEMO_CONSENTS.forEach((consent, consentIndex) => {
    participantIds.forEach((participantId, index) => {
      const status = consent.statusOf(index);
      if (status === null) return;
      rows.push({ consentId: created[consentIndex]!.id, participantId, version: consent.version, status });
    });
  });
  if (rows.length > 0) await tx.insert(consentParticipants).values(rows);
}
