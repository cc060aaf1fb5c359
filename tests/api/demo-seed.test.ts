import { count, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { loginResponse } from "../../core/contracts/auth.ts";
import { studyResponse, type StudyResponse } from "../../core/contracts/study.ts";
import { meResponse, type StudyPermission } from "../../core/contracts/user.ts";
import { hasUsablePassword } from "../../server/auth/passwords.ts";
import { participants, studies, users } from "../../server/db/schema.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_PENDING_ACCOUNT } from "../../server/seed/demo.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

/** The accounts the issue names, with the clinician role each has in its studies. */
const EXPECTED_ACCOUNTS: { username: string; clinicianRole: string; temporary: boolean }[] = [
  { username: "coordinator@demo.test", clinicianRole: "16", temporary: false },
  { username: "staff1@demo.test", clinicianRole: "11", temporary: false },
  { username: "staff2@demo.test", clinicianRole: "12", temporary: false },
  { username: "staff3@demo.test", clinicianRole: "13", temporary: false },
  { username: "witness@demo.test", clinicianRole: "Impartial Witness", temporary: false },
  { username: "admin@demo.test", clinicianRole: "16", temporary: false },
  { username: "newuser@demo.test", clinicianRole: "11", temporary: true },
];

/** The study-list rule of spec 01 section 4. */
function passesStudyListRule(permission: StudyPermission, siteId: number) {
  const site = permission.sites.find((candidate) => candidate.site_id === siteId)!;
  const scopeAllows = permission.scope.includes("ca") || permission.scope.includes("cp");
  return scopeAllows && (site.is_virtual || site.tree_level === 4 || permission.sites.length === 1);
}

describeOnEachDatabase("the demo seed", (api) => {
  it("lists exactly the seven demo accounts of the issue", () => {
    expect(DEMO_PASSWORD).toBe("DemoPass1!");
    expect(DEMO_ACCOUNTS.map((account) => account.username).sort()).toEqual(
      EXPECTED_ACCOUNTS.map((account) => account.username).sort(),
    );
  });

  it.each(EXPECTED_ACCOUNTS)(
    "signs $username in with DemoPass1! and gives it clinician role $clinicianRole",
    async ({ username, clinicianRole, temporary }) => {
      const response = await api.login(username, "DemoPass1!", { remoteAddress: "10.4.0.1" });
      expect(response.statusCode).toBe(200);
      const signIn = loginResponse.parse(response.json());
      expect(signIn.is_temporary_password).toBe(temporary);
      const me = meResponse.parse(
        (await api.request("GET", "/control/clinro/users/me", { token: signIn.token })).json(),
      );
      expect(Object.keys(me.permissions).length).toBeGreaterThan(0);
      for (const permission of Object.values(me.permissions)) {
        expect(permission.role).toBe(clinicianRole);
      }
    },
  );

  it("makes the administrator the one account that may edit users", async () => {
    const admin = meResponse.parse(
      (
        await api.request("GET", "/control/clinro/users/me", { token: await api.signIn("admin@demo.test") })
      ).json(),
    );
    expect(admin.role).toBe("administrator");
    expect(admin.scope).toContain("wu");
    const coordinator = meResponse.parse(
      (
        await api.request("GET", "/control/clinro/users/me", {
          token: await api.signIn("coordinator@demo.test"),
        })
      ).json(),
    );
    expect(coordinator.scope).not.toContain("wu");
  });

  it("seeds pending@demo.test, made by the administrator, without a usable password until it is activated", async () => {
    expect(DEMO_PENDING_ACCOUNT.username).toBe("pending@demo.test");
    const [pending] = await api.db.select().from(users).where(eq(users.username, "pending@demo.test"));
    const [admin] = await api.db.select().from(users).where(eq(users.username, "admin@demo.test"));
    expect(pending).toBeDefined();
    expect(hasUsablePassword(pending!.passwordHash)).toBe(false);
    expect(pending!.createdBy).toBe(admin!.id);
    expect(pending!.lastLogin).toBeNull();
    expect(
      (await api.login("pending@demo.test", DEMO_PASSWORD, { remoteAddress: "10.4.0.2" })).statusCode,
    ).toBe(400);
  });

  it("seeds at least 60 participants in every study", async () => {
    const perStudy = await api.db
      .select({ studyId: participants.studyId, total: count() })
      .from(participants)
      .groupBy(participants.studyId);
    const allStudies = await api.db.select({ id: studies.id }).from(studies);
    expect(allStudies.length).toBeGreaterThanOrEqual(2);
    for (const study of allStudies) {
      const row = perStudy.find((candidate) => candidate.studyId === study.id);
      expect(row?.total ?? 0, `participants of study ${study.id}`).toBeGreaterThanOrEqual(60);
    }
  });

  it("gives participants genders m, f and null, and leaves some subject ids blank", async () => {
    const genders = await api.db.selectDistinct({ gender: participants.gender }).from(participants);
    expect(genders.map((row) => row.gender)).toEqual(expect.arrayContaining(["m", "f", null]));
    for (const row of genders) expect(["m", "f", "o", null]).toContain(row.gender);

    const blank = await api.db
      .select({ total: count() })
      .from(participants)
      .where(eq(participants.subjectId, ""));
    expect(blank[0]!.total).toBeGreaterThan(0);
    const withId = await api.db
      .select({ total: count() })
      .from(participants)
      .where(sql`${participants.subjectId} <> ''`);
    expect(withId[0]!.total).toBeGreaterThan(blank[0]!.total);
  });

  it("gives participants names and plausible dates of birth", async () => {
    const rows = await api.db.select().from(participants);
    const thisYear = new Date().getUTCFullYear();
    for (const row of rows) {
      expect(row.fname.trim()).not.toBe("");
      expect(row.lname.trim()).not.toBe("");
      expect(row.dateOfBirth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const year = Number(row.dateOfBirth!.slice(0, 4));
      expect(thisYear - year).toBeGreaterThanOrEqual(18);
      expect(thisYear - year).toBeLessThanOrEqual(100);
    }
    expect(new Set(rows.map((row) => `${row.fname} ${row.lname}`)).size).toBeGreaterThan(rows.length / 3);
  });

  it("has one study with newConsentEnabled, one with smsEnabled and one with virtual_visits", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const answers: StudyResponse[] = [];
    for (const { id } of await api.db.select({ id: studies.id }).from(studies)) {
      const response = await api.request("GET", `/control/studies/${id}`, { token });
      expect(response.statusCode).toBe(200);
      answers.push(studyResponse.parse(response.json()));
    }
    expect(answers.some((study) => study.newConsentEnabled)).toBe(true);
    expect(answers.some((study) => study.smsEnabled)).toBe(true);
    expect(answers.some((study) => study.config.virtual_visits === true)).toBe(true);
  });

  it("gives the coordinator at least two studies in the study list and one site the rule filters out", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const me = meResponse.parse((await api.request("GET", "/control/clinro/users/me", { token })).json());
    const pairs = Object.values(me.permissions).flatMap((permission) =>
      permission.sites.map((site) => ({
        studyId: permission.study_id,
        siteId: site.site_id,
        listed: passesStudyListRule(permission, site.site_id),
      })),
    );
    const listedStudies = new Set(pairs.filter((pair) => pair.listed).map((pair) => pair.studyId));
    expect(listedStudies.size).toBeGreaterThanOrEqual(2);
    expect(pairs.filter((pair) => !pair.listed)).toEqual([{ studyId: 102, siteId: 1022, listed: false }]);
    const filteredOut = me.permissions["102"]!.sites.find((site) => site.site_id === 1022)!;
    expect(filteredOut).toMatchObject({ is_virtual: false, tree_level: 3 });
    expect(me.permissions["102"]!.sites.length).toBeGreaterThan(1);
  });
});
