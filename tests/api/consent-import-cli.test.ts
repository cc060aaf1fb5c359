import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseOptions } from "../../server/db/client.ts";
import {
  consentParticipants,
  consents,
  consentVersions,
  participants,
  sites,
  studies,
} from "../../server/db/schema.ts";
import { demoConsentJson } from "../../server/seed/demo-consents.ts";
import { databaseTargets } from "../support/api-harness.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "clinro-consent-cli-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "server/cli/main.ts", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });

/** The demo's genetic consent without consent_version (each import takes the next one). */
async function consentFile(name: string, change: (json: Record<string, unknown>) => void = () => {}) {
  const json = demoConsentJson("mdd301-genetic-substudy.json");
  delete json.consent_version;
  change(json);
  const file = path.join(workDir, name);
  await writeFile(file, JSON.stringify(json));
  return file;
}

describe("npm run clinro -- consent import, as a process", () => {
  for (const target of databaseTargets) {
    it.skipIf(!target.available)(
      `checks the file first, creates the consent, then publishes its next version (${target.title})`,
      async () => {
        let options: DatabaseOptions;
        let env: Record<string, string>;
        let drop = async () => {};
        if (target.kind === "postgres") {
          const created = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
          drop = created.drop;
          options = { kind: "postgres", url: created.url };
          env = { DATABASE_URL: created.url };
        } else {
          const dataDir = await mkdtemp(path.join(tmpdir(), "clinro-consent-cli-data-"));
          drop = () => rm(dataDir, { recursive: true, force: true });
          options = { kind: "pglite", dataDir: path.join(dataDir, "pglite") };
          env = { DATA_DIR: dataDir };
        }
        try {
          // A signature without signer_role: refused before any database is opened.
          const bad = await consentFile("bad-consent.json", (json) => {
            const questions = json.questions as Record<string, { attributes?: Record<string, unknown> }>;
            questions.participant_signature!.attributes = { required: true };
          });
          const refused = await cli(["consent", "import", bad, "--study", "7"], env);
          expect(refused.code).toBe(1);
          expect(refused.stderr).toContain(
            'Question "participant_signature", field "attributes.signer_role"',
          );
          const usage = await cli(["consent", "import", bad], env);
          expect(usage.code).toBe(2);
          expect(usage.stderr).toContain("--study is required");

          const setup = await openDatabase(options);
          await setup.migrate();
          await setup.db.insert(studies).values({ id: 7, name: "CLI study" });
          await setup.db.insert(sites).values({ id: 71, studyId: 7, label: "Site", treeLevel: 4 });
          await setup.db.insert(participants).values([
            { studyId: 7, siteId: 71, fname: "Ana", lname: "Núñez" },
            { studyId: 7, siteId: 71, fname: "Bo", lname: "Berg" },
          ]);
          await setup.close();

          const good = await consentFile("good-consent.json");
          const created = await cli(["consent", "import", good, "--study", "7"], env);
          expect(created.stderr).toBe("");
          expect(created.code).toBe(0);
          expect(created.stdout).toContain(
            '"Optional Genetic Sub-study Consent" of study 7, version 1, offered to 2 participants',
          );

          const check = await openDatabase(options);
          try {
            const [consent] = await check.db.select().from(consents).where(eq(consents.studyId, 7));
            const [participant] = await check.db
              .select()
              .from(participants)
              .orderBy(asc(participants.id))
              .limit(1);
            await check.db
              .update(consentParticipants)
              .set({ status: "declined" })
              .where(eq(consentParticipants.participantId, participant!.id));
            await check.close();

            const next = await cli(["consent", "import", good, "--study", "7"], env);
            expect(next.code).toBe(0);
            expect(next.stdout).toContain("Published version 2");
            expect(next.stdout).toContain("1 participants are asked to consent again");

            const after = await openDatabase(options);
            try {
              const versions = await after.db
                .select({ version: consentVersions.version })
                .from(consentVersions)
                .where(eq(consentVersions.consentId, consent!.id))
                .orderBy(asc(consentVersions.version));
              expect(versions).toEqual([{ version: 1 }, { version: 2 }]);
              const offers = await after.db
                .select({ status: consentParticipants.status, version: consentParticipants.version })
                .from(consentParticipants)
                .where(eq(consentParticipants.consentId, consent!.id))
                .orderBy(asc(consentParticipants.participantId));
              expect(offers).toEqual([
                { status: "declined", version: 1 },
                { status: "awaiting_participant", version: 2 },
              ]);
              const [updated] = await after.db.select().from(consents).where(eq(consents.id, consent!.id));
              expect(updated!.version).toBe(2);
            } finally {
              await after.close();
            }
          } catch (error) {
            await check.close().catch(() => {});
            throw error;
          }
        } finally {
          await drop();
        }
      },
      180_000,
    );
  }
});
