/**
 * The first start of a site's own portal (issue: a site sets up its own study): the demo only on
 * the embedded database unless asked for, the first administrator made by `clinro admin create`
 * and activated from the mailed link, and several servers starting together on one empty
 * PostgreSQL, seeded or not.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meResponse } from "../../core/contracts/user.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { studies, users } from "../../server/db/schema.ts";
import { readEnv, seedChoice } from "../../server/env.ts";
import { createMailer } from "../../server/mail/mailer.ts";
import { DEMO_ACCOUNTS, DEMO_STUDIES } from "../../server/seed/demo.ts";
import { FIRST_ADMINISTRATOR_HINT } from "../../server/start.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../support/server-process.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const adminUrl = process.env.TEST_DATABASE_URL || undefined;
const JWT_SECRET = "first-start-shared-signing-secret-0123456789";

describe("what an empty database is seeded with", () => {
  it("the demo on the embedded database, nothing on a DATABASE_URL, and SEED wins either way", () => {
    expect(seedChoice(readEnv({}))).toBe("demo");
    expect(seedChoice(readEnv({ DATABASE_URL: "postgres://db.example/clinro" }))).toBe("none");
    expect(seedChoice(readEnv({ DATABASE_URL: "postgres://db.example/clinro", SEED: "demo" }))).toBe("demo");
    expect(seedChoice(readEnv({ SEED: "none" }))).toBe("none");
    expect(() => readEnv({ SEED: "everything" })).toThrow(/SEED/);
  });
});

/** Runs the clinro command on an open database, its mail dropped as .eml files in mailDir/mail. */
async function clinro(handle: DatabaseHandle, mailDir: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const mailer = createMailer(
    { from: "Portal <no-reply@test.example>", dropDir: path.join(mailDir, "mail") },
    { info: () => {} },
  );
  try {
    const code = await runCli(
      argv,
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { database: handle, mail: { mailer, publicUrl: "https://portal.test.example" } },
    );
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    mailer.close();
  }
}

const ADMIN_EMAIL = "it.lead@site.example";

function describeAdminCreate(kind: "pglite" | "postgres") {
  describe.skipIf(kind === "postgres" && !adminUrl)(
    kind === "pglite"
      ? "clinro admin create on PGlite"
      : adminUrl
        ? "clinro admin create on PostgreSQL"
        : "clinro admin create on PostgreSQL (skipped: TEST_DATABASE_URL is not set)",
    () => {
      let handle: DatabaseHandle;
      let mailDir: string;
      let drop: (() => Promise<void>) | undefined;

      beforeAll(async () => {
        mailDir = await mkdtemp(path.join(tmpdir(), "clinro-admin-mail-"));
        if (kind === "postgres") {
          const database = await createThrowawayDatabase(adminUrl!, "admin");
          drop = database.drop;
          handle = await openDatabase({ kind: "postgres", url: database.url, maxConnections: 2 });
        } else {
          handle = await openDatabase({ kind: "pglite" });
        }
        await handle.migrate();
      });
      afterAll(async () => {
        await handle.close();
        await drop?.();
        await rm(mailDir, { recursive: true, force: true });
      });

      it("refuses a missing or malformed email or name with the usage, and creates nobody", async () => {
        for (const argv of [
          ["admin", "create", "--name", "Ines Ortega"],
          ["admin", "create", "--email", "not-an-address", "--name", "Ines Ortega"],
          ["admin", "create", "--email", ADMIN_EMAIL],
          ["admin", "create", "--email", ADMIN_EMAIL, "--name", "   "],
          ["admin", "make", "--email", ADMIN_EMAIL, "--name", "Ines Ortega"],
        ]) {
          const result = await clinro(handle, mailDir, ...argv);
          expect(result.code, argv.join(" ")).toBe(2);
          expect(result.err).toMatch(/--email|--name|Unknown command/);
        }
        const [row] = await handle.db.select({ total: count() }).from(users);
        expect(row?.total).toBe(0);
      });

      it("creates an administrator without a password and mails the activation link", async () => {
        const result = await clinro(
          handle,
          mailDir,
          "admin",
          "create",
          "--email",
          "IT.Lead@Site.example",
          "--name",
          "Ines Ortega",
        );
        expect(result.code, result.err).toBe(0);
        expect(result.out).toContain(`Created administrator ${ADMIN_EMAIL}`);
        expect(result.out).toContain(`Activation link mailed to ${ADMIN_EMAIL}`);
        const [admin] = await handle.db.select().from(users).where(eq(users.username, ADMIN_EMAIL));
        expect(admin).toMatchObject({ role: "administrator", name: "Ines Ortega", scope: ["wu"] });
        const [mail] = await mailsTo(mailDir, ADMIN_EMAIL);
        expect(mail?.links[0]).toMatch(/^https:\/\/portal\.test\.example\/users\/activate\?token=/);
      });

      it("refuses an email that already has an account, and changes nothing", async () => {
        const before = (await mailsTo(mailDir, ADMIN_EMAIL)).length;
        const result = await clinro(
          handle,
          mailDir,
          "admin",
          "create",
          "--email",
          ADMIN_EMAIL,
          "--name",
          "Someone Else",
        );
        expect(result.code).toBe(1);
        expect(result.err).toContain("already exists");
        const rows = await handle.db.select({ name: users.name }).from(users);
        expect(rows).toEqual([{ name: "Ines Ortega" }]);
        expect(await mailsTo(mailDir, ADMIN_EMAIL)).toHaveLength(before);
      });
    },
  );
}

describeAdminCreate("pglite");
describeAdminCreate("postgres");

/** The JSON log lines a server process printed whose message is `message`. */
function logged(server: ServerProcess, message: string | RegExp) {
  return server.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string })
    .filter((line) => (typeof message === "string" ? line.msg === message : message.test(line.msg ?? "")));
}

describe.skipIf(!adminUrl)(
  adminUrl
    ? "two servers starting together on one empty PostgreSQL"
    : "two servers starting together on one empty PostgreSQL (skipped: TEST_DATABASE_URL is not set)",
  () => {
    const servers: ServerProcess[] = [];
    const drops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((server) => stopServerProcess(server)));
      for (const drop of drops) await drop();
    }, 60_000);

    async function startTwo(env: Record<string, string>) {
      const database = await createThrowawayDatabase(adminUrl!, "firststart");
      drops.push(database.drop);
      const started = await Promise.all(
        [1, 2].map(() =>
          startServerProcess({ databaseUrl: database.url, jwtSecret: JWT_SECRET, env, captureOutput: true }),
        ),
      );
      servers.push(...started);
      return { database, started };
    }

    it("without SEED: both come up, nobody is seeded, and each says the one command that makes the first administrator", async () => {
      const { database, started } = await startTwo({ SEED: "" });
      for (const server of started) {
        expect(logged(server, FIRST_ADMINISTRATOR_HINT)).toHaveLength(1);
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      }
      expect(FIRST_ADMINISTRATOR_HINT).toContain("npx clinro admin create --email E --name N");
      const handle = await openDatabase({ kind: "postgres", url: database.url, maxConnections: 1 });
      try {
        expect(await handle.db.select({ id: users.id }).from(users)).toEqual([]);
        expect(await handle.db.select({ id: studies.id }).from(studies)).toEqual([]);

        // The first administrator: made by the command, activated from the mail on either server.
        const mailDir = await mkdtemp(path.join(tmpdir(), "clinro-first-admin-"));
        try {
          const created = await clinro(
            handle,
            mailDir,
            "admin",
            "create",
            "--email",
            ADMIN_EMAIL,
            "--name",
            "Ines Ortega",
          );
          expect(created.code, created.err).toBe(0);
          const [mail] = await mailsTo(mailDir, ADMIN_EMAIL);
          const token = tokenOfLink(mail!.links[0]!);
          const password = "Site&Admin2026";
          const setup = await fetch(`${started[1]!.url}/control/users/setup_password`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              password,
              password_confirmation: password,
              token,
              platform_type: "clinro",
            }),
          });
          expect(setup.status).toBe(200);
          const login = await fetch(`${started[0]!.url}/control/clinro/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username: ADMIN_EMAIL, password }),
          });
          expect(login.status).toBe(200);
          const { token: session } = (await login.json()) as { token: string };
          const me = await fetch(`${started[0]!.url}/control/clinro/users/me`, {
            headers: { authorization: `Bearer ${session}` },
          });
          expect(meResponse.parse(await me.json()).role).toBe("administrator");
        } finally {
          await rm(mailDir, { recursive: true, force: true });
        }
      } finally {
        await handle.close();
      }
    }, 180_000);

    it("with SEED=demo: both come up, the demo is seeded once, and the seeding says loudly what it made", async () => {
      const { database, started } = await startTwo({ SEED: "demo" });
      const warnings = started.flatMap((server) => logged(server, /^Seeded the demo site \(SEED=demo\)/));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toContain("never for real data");
      expect(warnings[0]!.msg).toContain("DemoPass1!");
      const handle = await openDatabase({ kind: "postgres", url: database.url, maxConnections: 1 });
      try {
        const [studyRows] = await handle.db.select({ total: count() }).from(studies);
        expect(studyRows?.total).toBe(DEMO_STUDIES.length);
        const [userRows] = await handle.db.select({ total: count() }).from(users);
        expect(userRows?.total).toBeGreaterThanOrEqual(DEMO_ACCOUNTS.length);
      } finally {
        await handle.close();
      }
      for (const server of started) expect(logged(server, FIRST_ADMINISTRATOR_HINT)).toEqual([]);
    }, 240_000);
  },
);
