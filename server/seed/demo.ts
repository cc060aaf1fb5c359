/**
 * The demo site, seeded into an empty database by `npm start` (SEED=none skips it).
 * Every demo account uses the password DEMO_PASSWORD; it exists only here.
 */
import { sql } from "drizzle-orm";
import { hashPassword, UNUSABLE_PASSWORD_HASH } from "../auth/passwords.ts";
import type { Database } from "../db/client.ts";
import {
  participants,
  sitePermissions,
  sites,
  studies,
  studyPermissions,
  users,
  type StudyConfig,
} from "../db/schema.ts";
import { makeDemoPeople } from "./demo-people.ts";
import { demoParticipantConsented, seedDemoConsents } from "./demo-consents.ts";
import { seedDemoInstruments } from "./demo-instruments.ts";
import { seedDemoVisits } from "./demo-visits.ts";
import { seedDemoAnnouncements } from "./demo-announcements.ts";
import { ROLE_CODE, WITNESS_ROLE } from "../../core/contracts/roles.ts";
import { studyScopeOf } from "../../core/contracts/study-rights.ts";

export const DEMO_PASSWORD = "DemoPass1!";
export const DEMO_PARTICIPANTS_PER_STUDY = 72;

type DemoStudy = {
  id: number;
  name: string;
  subjectPrefix: string;
  smsEnabled: boolean;
  newConsentEnabled: boolean;
  config: StudyConfig;
  sites: { id: number; label: string; treeLevel: number; isVirtual: boolean }[];
};

export const DEMO_STUDIES: DemoStudy[] = [
  {
    id: 101,
    name: "MDD-301 Depression Maintenance",
    subjectPrefix: "MDD",
    smsEnabled: false,
    newConsentEnabled: true,
    config: { instrument_architecture_version: 1, clinro: { greeting: "Welcome to MDD-301" } },
    sites: [
      { id: 1011, label: "Boston Clinical Research Center", treeLevel: 4, isVirtual: false },
      { id: 1012, label: "Lakeside Psychiatry Unit", treeLevel: 4, isVirtual: false },
    ],
  },
  {
    id: 102,
    name: "SCZ-214 Negative Symptoms",
    subjectPrefix: "SCZ",
    smsEnabled: true,
    newConsentEnabled: false,
    config: { virtual_visits: true, instrument_architecture_version: 2 },
    sites: [
      { id: 1021, label: "Remote Visits Hub", treeLevel: 4, isVirtual: true },
      // Neither virtual, nor at tree level 4, nor the only site: the study list leaves it out.
      { id: 1022, label: "Northern Region Office", treeLevel: 3, isVirtual: false },
    ],
  },
  {
    id: 103,
    name: "GAD-118 Anxiety Open-Label",
    subjectPrefix: "GAD",
    smsEnabled: false,
    newConsentEnabled: false,
    config: { instrument_architecture_version: 1 },
    sites: [{ id: 1031, label: "Riverside Medical Group", treeLevel: 2, isVirtual: false }],
  },
];

type DemoAccount = {
  username: string;
  name: string;
  role: "enroller" | "researcher" | "studyManager" | "administrator";
  scope?: string[];
  temporary?: boolean;
  /** Clinician role per study id. */
  studies: Record<number, string>;
  /** The studies where they were given the export right (core/contracts/study-rights.ts). */
  exports?: number[];
};

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    username: "coordinator@demo.test",
    name: "Carmen Ortiz",
    role: "studyManager",
    studies: {
      101: ROLE_CODE.clinicalCoordinator,
      102: ROLE_CODE.clinicalCoordinator,
      103: ROLE_CODE.clinicalCoordinator,
    },
    // The study manager exports her studies' data; the researchers do not unless given it.
    exports: [101, 102, 103],
  },
  {
    username: "staff1@demo.test",
    name: "Daniel Kim",
    role: "researcher",
    studies: { 101: ROLE_CODE.clinicalStaff1, 102: ROLE_CODE.clinicalStaff1 },
  },
  {
    username: "staff2@demo.test",
    name: "Eva Lindgren",
    role: "researcher",
    studies: { 101: ROLE_CODE.clinicalStaff2, 102: ROLE_CODE.clinicalStaff2 },
  },
  {
    username: "staff3@demo.test",
    name: "Farid Haddad",
    role: "researcher",
    studies: { 101: ROLE_CODE.clinicalStaff3, 103: ROLE_CODE.clinicalStaff3 },
  },
  {
    username: "witness@demo.test",
    name: "Grace Mensah",
    role: "enroller",
    studies: { 101: WITNESS_ROLE },
  },
  {
    username: "admin@demo.test",
    name: "Henry Walsh",
    role: "administrator",
    scope: ["wu"],
    studies: {
      101: ROLE_CODE.clinicalCoordinator,
      102: ROLE_CODE.clinicalCoordinator,
      103: ROLE_CODE.clinicalCoordinator,
    },
  },
  {
    username: "newuser@demo.test",
    name: "Iris Novak",
    role: "researcher",
    temporary: true,
    studies: { 101: ROLE_CODE.clinicalStaff1 },
  },
];

/**
 * A user an administrator has made who has not activated the account yet: no password works
 * until the activation link is followed. `npm start` mails that link when it seeds (into
 * DATA_DIR/mail/ and the log, without SMTP_URL). Not one of DEMO_ACCOUNTS: it cannot sign in.
 */
export const DEMO_PENDING_ACCOUNT: DemoAccount = {
  username: "pending@demo.test",
  name: "Jonah Pierce",
  role: "researcher",
  studies: { 101: ROLE_CODE.clinicalStaff1 },
};

export async function isDatabaseEmpty(db: Database) {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return (row?.count ?? 0) === 0;
}

/** Seeds an empty database with the demo (the signature images' bytes included). */
export async function seedDemo(db: Database) {
  await db.transaction(async (tx) => {
    const participantIdsByStudy = new Map<number, number[]>();
    /** Clinicians of each study who complete the demo's instruments, the coordinator first. */
    const completersByStudy = new Map<number, number[]>();
    for (const study of DEMO_STUDIES) {
      await tx.insert(studies).values({
        id: study.id,
        name: study.name,
        smsEnabled: study.smsEnabled,
        newConsentEnabled: study.newConsentEnabled,
        config: study.config,
      });
      await tx.insert(sites).values(study.sites.map((site) => ({ ...site, studyId: study.id })));
      const people = makeDemoPeople(DEMO_PARTICIPANTS_PER_STUDY, study.subjectPrefix, study.id);
      const inserted = await tx
        .insert(participants)
        .values(
          people.map((person, index) => ({
            ...person,
            studyId: study.id,
            siteId: study.sites[index % study.sites.length]!.id,
            firstLoginTimestamp: new Date(Date.UTC(2026, 0, 5 + (index % 200))),
          })),
        )
        .returning({ id: participants.id });
      participantIdsByStudy.set(
        study.id,
        inserted.map((row) => row.id),
      );
    }

    const demoHash = await hashPassword(DEMO_PASSWORD);
    const admin = { id: undefined as number | undefined };
    for (const account of [...DEMO_ACCOUNTS, DEMO_PENDING_ACCOUNT]) {
      const pending = account.username === DEMO_PENDING_ACCOUNT.username;
      const [created] = await tx
        .insert(users)
        .values({
          username: account.username,
          passwordHash: pending ? UNUSABLE_PASSWORD_HASH : demoHash,
          createdBy: pending ? admin.id : undefined,
          name: account.name,
          nickname: account.name,
          fname: account.name.split(" ")[0] ?? account.name,
          role: account.role,
          scope: account.scope ?? [],
          isTemporaryPassword: account.temporary ?? false,
        })
        .returning({ id: users.id });
      const userId = created!.id;
      if (account.role === "administrator") admin.id = userId;
      for (const [studyId, role] of Object.entries(account.studies)) {
        const study = DEMO_STUDIES.find((candidate) => candidate.id === Number(studyId))!;
        await tx.insert(studyPermissions).values({
          userId,
          studyId: study.id,
          role,
          scope: studyScopeOf({ mayExport: account.exports?.includes(study.id) ?? false }),
        });
        await tx.insert(sitePermissions).values(study.sites.map((site) => ({ userId, siteId: site.id })));
        if (!pending && !account.temporary && role !== WITNESS_ROLE) {
          // The coordinator is the first demo account, so the first completer of every study.
          completersByStudy.set(study.id, [...(completersByStudy.get(study.id) ?? []), userId]);
        }
      }
    }

    for (const study of DEMO_STUDIES) {
      await seedDemoInstruments(
        tx,
        study.id,
        participantIdsByStudy.get(study.id) ?? [],
        completersByStudy.get(study.id) ?? [],
        study.newConsentEnabled ? demoParticipantConsented : undefined,
      );
      if (study.newConsentEnabled) {
        await seedDemoConsents(tx, study.id, participantIdsByStudy.get(study.id) ?? []);
      }
    }
    await seedDemoVisits(tx, new Date());
    await seedDemoAnnouncements(tx, new Date());
  });
}
