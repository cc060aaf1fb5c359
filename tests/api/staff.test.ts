import { randomUUID } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import {
  assignableStudies,
  staffImportRefusal,
  staffImportResponse,
  staffMember,
  type StaffMember,
} from "../../core/contracts/staff.ts";
import { usersResponse } from "../../core/contracts/users.ts";
import { accountTokens, auditLog, sitePermissions, studyPermissions, users } from "../../server/db/schema.ts";
import { runCli } from "../../server/cli/run-cli.ts";
import { describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";
import { rowCounts } from "../support/row-counts.ts";

const INVITE = "/control/users/invitations";
const IMPORT = "/control/users/invitations/import";
const access = (userId: number) => `/control/users/${userId}/access`;
const NEW_PASSWORD = "Chosen&Strong42";

let counter = 0;
const freshEmail = (label = "staff") => {
  counter += 1;
  return `${label}${counter}-${randomUUID().slice(0, 8)}@site.example`;
};

async function idOf(api: ApiHarness, username: string) {
  const [row] = await api.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

async function lastAuditId(api: ApiHarness) {
  const [row] = await api.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

/** The activation link of the newest mail to the address (after the background mail is sent). */
async function activationLinkOf(api: ApiHarness, email: string) {
  await api.app.backgroundTasks.drain();
  const mails = await mailsTo(api.dataDir, email);
  const link = mails.at(-1)?.links[0];
  if (!link) throw new Error(`no mail to ${email}`);
  return { link, count: mails.length };
}

async function activate(api: ApiHarness, link: string) {
  return api.request("POST", "/control/users/setup_password", {
    body: {
      token: tokenOfLink(link),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
      platform_type: "clinro",
    },
  });
}

describeOnEachDatabase("staff management: invitations, access, deactivation", (api) => {
  // One sign-in for the file: a sign-in writes the user's last login, which would count as a change.
  let adminToken: string | undefined;
  const admin = async () => (adminToken ??= await api.signIn("admin@demo.test"));

  const invite = async (body: Record<string, unknown>) =>
    api.request("POST", INVITE, { token: await admin(), body });

  const coordinatorInvitation = (email = freshEmail()) => ({
    email,
    name: "Carla Ruiz",
    management_role: "enroller",
    studies: [{ study_id: 101, role: "16", site_ids: [1011] }],
  });

  it("invites a coordinator: the account with its role and site, audited as the administrator; the mailed link activates it and they see their study", async () => {
    const adminId = await idOf(api, "admin@demo.test");
    const before = await lastAuditId(api);
    const email = freshEmail("carla");
    const response = await invite({ ...coordinatorInvitation(email), email: `  ${email.toUpperCase()} ` });
    expect(response.statusCode).toBe(201);
    const member = staffMember.parse(response.json());
    expect(member).toMatchObject({
      username: email,
      name: "Carla Ruiz",
      role: "enroller",
      status: "invited",
      deactivated_at: null,
      last_login: null,
      studies: [
        {
          study_id: 101,
          role: "16",
          sites: [{ site_id: 1011, site_label: "Boston Clinical Research Center" }],
        },
      ],
    });
    const expiresIn = Date.parse(member.invitation_expires_at!) - Date.now();
    expect(expiresIn).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

    const audited = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          gt(auditLog.id, before),
          inArray(auditLog.tableName, ["users", "study_permissions", "site_permissions"]),
        ),
      );
    expect(audited.map((row) => [row.tableName, row.action, row.actorUserId])).toEqual(
      expect.arrayContaining([
        ["users", "insert", adminId],
        ["study_permissions", "insert", adminId],
        ["site_permissions", "insert", adminId],
      ]),
    );

    const { link } = await activationLinkOf(api, email);
    expect(link).toMatch(/\/users\/activate\?token=/);
    expect((await api.login(email, NEW_PASSWORD, { remoteAddress: "10.9.0.1" })).statusCode).toBe(400);
    const activated = await activate(api, link);
    expect(activated.statusCode, activated.body).toBe(200);
    const token = await api.signIn(email, NEW_PASSWORD);
    const me = (await api.request("GET", "/control/clinro/users/me", { token })).json() as {
      permissions: Record<string, { role: string; sites: { site_id: number }[] }>;
    };
    expect(Object.keys(me.permissions)).toEqual(["101"]);
    expect(me.permissions["101"]).toMatchObject({ role: "16", sites: [{ site_id: 1011 }] });
    const studies = await api.request("GET", "/control/studies/101", { token });
    expect(studies.statusCode).toBe(200);
    expect(
      staffMember.parse((await api.request("GET", access(member.id), { token: await admin() })).json())
        .status,
    ).toBe("active");
  });

  it("refuses (403) every staff call to a user whose management role does not allow users, and changes nothing", async () => {
    const target = await api.createUser();
    const tokens = new Map<string, string>();
    for (const username of ["coordinator@demo.test", "staff1@demo.test", "witness@demo.test"]) {
      tokens.set(username, await api.signIn(username));
    }
    const counts = await rowCounts(api.db);
    for (const [username, token] of tokens) {
      const probes: [string, string, unknown?][] = [
        ["GET", "/control/users/study-sites"],
        ["POST", INVITE, coordinatorInvitation()],
        [
          "POST",
          IMPORT,
          { csv: "email,name,study_id,role,site_ids\nx@y.example,X,101,11,1011\n", dry_run: false },
        ],
        ["GET", access(target.id)],
        ["PUT", access(target.id), { management_role: "administrator", studies: [] }],
        ["POST", `/control/users/${target.id}/invitation`],
        ["POST", `/control/users/${target.id}/deactivate`],
        ["POST", `/control/users/${target.id}/reactivate`],
      ];
      for (const [method, url, body] of probes) {
        const response = await api.request(method as "GET", url, { token, body });
        expect(response.statusCode, `${username} ${method} ${url}`).toBe(403);
        expect(errorBody.parse(response.json()).code).toBe("users_forbidden");
      }
    }
    expect(await rowCounts(api.db)).toEqual(counts);
  });

  it("answers bad invitations with a 400 naming each field, and invites nobody", async () => {
    await admin();
    const counts = await rowCounts(api.db);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...coordinatorInvitation(), email: "not-an-email" }, ["email"]],
      [{ ...coordinatorInvitation(), name: "  " }, ["name"]],
      [{ ...coordinatorInvitation(), management_role: "owner" }, ["management_role"]],
      [
        { ...coordinatorInvitation(), studies: [{ study_id: 101, role: "99", site_ids: [1011] }] },
        ["studies.0.role"],
      ],
      [
        { ...coordinatorInvitation(), studies: [{ study_id: 999, role: "11", site_ids: [1011] }] },
        ["studies.0.study_id"],
      ],
      [
        {
          ...coordinatorInvitation(),
          studies: [{ study_id: 101, role: "11", site_ids: [1011, 1021, 1011] }],
        },
        ["studies.0.site_ids.1", "studies.0.site_ids.2"],
      ],
      [
        { ...coordinatorInvitation(), studies: [{ study_id: 101, role: "11", site_ids: [] }] },
        ["studies.0.site_ids"],
      ],
      [
        {
          ...coordinatorInvitation(),
          studies: [
            { study_id: 102, role: "11", site_ids: [1021] },
            { study_id: 102, role: "12", site_ids: [1022] },
          ],
        },
        ["studies.1.study_id"],
      ],
      [{ ...coordinatorInvitation(), email: "STAFF1@demo.test" }, ["email"]],
    ];
    for (const [body, paths] of cases) {
      const response = await invite(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const answer = errorBody.parse(response.json());
      expect(
        answer.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toEqual(paths);
      for (const path of paths) expect(answer.message).toContain(path);
    }
    expect(await rowCounts(api.db)).toEqual(counts);
  });

  it("resends an invitation: a new link works and the earlier one does not; an active user is refused (409)", async () => {
    const email = freshEmail();
    const member = staffMember.parse((await invite(coordinatorInvitation(email))).json());
    const first = await activationLinkOf(api, email);
    const resent = await api.request("POST", `/control/users/${member.id}/invitation`, {
      token: await admin(),
    });
    expect(resent.statusCode).toBe(200);
    expect(staffMember.parse(resent.json()).status).toBe("invited");
    const second = await activationLinkOf(api, email);
    expect(second.count).toBe(first.count + 1);
    expect(second.link).not.toBe(first.link);
    expect((await activate(api, first.link)).statusCode).toBe(400);
    expect((await activate(api, second.link)).statusCode).toBe(200);
    const again = await api.request("POST", `/control/users/${member.id}/invitation`, {
      token: await admin(),
    });
    expect(again.statusCode).toBe(409);
    expect(errorBody.parse(again.json()).code).toBe("user_active");
    const missing = await api.request("POST", "/control/users/2147483600/invitation", {
      token: await admin(),
    });
    expect(missing.statusCode).toBe(404);
  });

  it("says an invitation has expired once its link has, in the user list too", async () => {
    const email = freshEmail();
    const member = staffMember.parse((await invite(coordinatorInvitation(email))).json());
    await api.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, member.id));
    const read = staffMember.parse(
      (await api.request("GET", access(member.id), { token: await admin() })).json(),
    );
    expect(read).toMatchObject({ status: "invitation_expired", invitation_expires_at: null });
    const list = usersResponse.parse(
      (await api.request("GET", "/control/users", { token: await admin() })).json(),
    );
    expect(list.users.find((user) => user.id === member.id)).toMatchObject({ status: "invitation_expired" });
    expect(list.users.find((user) => user.username === "staff1@demo.test")).toMatchObject({
      status: "active",
    });
  });

  it("changes a user's management role, studies, roles and sites; a study left out is taken away; audited", async () => {
    const target = await api.createUser({ studies: { 101: "11", 103: "13" } });
    const adminId = await idOf(api, "admin@demo.test");
    const before = await lastAuditId(api);
    const response = await api.request("PUT", access(target.id), {
      token: await admin(),
      body: {
        management_role: "studyManager",
        studies: [
          { study_id: 101, role: "16", site_ids: [1012] },
          { study_id: 102, role: "Impartial Witness", site_ids: [1021, 1022] },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const member = staffMember.parse(response.json());
    expect(member.role).toBe("studyManager");
    expect(
      member.studies.map((study) => [study.study_id, study.role, study.sites.map((site) => site.site_id)]),
    ).toEqual([
      [101, "16", [1012]],
      [102, "Impartial Witness", [1021, 1022]],
    ]);
    const held = await api.db.select().from(studyPermissions).where(eq(studyPermissions.userId, target.id));
    expect(held.map((row) => row.studyId).sort()).toEqual([101, 102]);
    const sitesHeld = await api.db
      .select()
      .from(sitePermissions)
      .where(eq(sitePermissions.userId, target.id));
    expect(sitesHeld.map((row) => row.siteId).sort()).toEqual([1012, 1021, 1022]);
    const audited = await api.db.select().from(auditLog).where(gt(auditLog.id, before));
    expect(audited.filter((row) => row.tableName !== null).every((row) => row.actorUserId === adminId)).toBe(
      true,
    );
    expect(audited.some((row) => row.tableName === "study_permissions" && row.action === "delete")).toBe(
      true,
    );

    // The user's next token carries the new access.
    const token = await api.signIn(target.username);
    expect((await api.request("GET", "/control/studies/103", { token })).statusCode).toBe(403);
  });

  it("refuses a change of the administrator's own management role (403), and a site of another study (400)", async () => {
    const adminId = await idOf(api, "admin@demo.test");
    const own = await api.request("PUT", access(adminId), {
      token: await admin(),
      body: { management_role: "enroller", studies: [] },
    });
    expect(own.statusCode).toBe(403);
    const target = await api.createUser();
    await admin();
    const counts = await rowCounts(api.db);
    const wrongSite = await api.request("PUT", access(target.id), {
      token: await admin(),
      body: { management_role: "researcher", studies: [{ study_id: 101, role: "11", site_ids: [1031] }] },
    });
    expect(wrongSite.statusCode).toBe(400);
    expect(errorBody.parse(wrongSite.json()).issues).toEqual([
      { path: "studies.0.site_ids.0", message: "site 1031 is not a site in use of study 101" },
    ]);
    expect(await rowCounts(api.db)).toEqual(counts);
  });

  it("deactivates a user: their token stops at the next request, they cannot sign in nor be invited again; reactivation lets them sign in, never with the old token", async () => {
    const target = await api.createUser();
    const token = await api.signIn(target.username);
    expect((await api.request("GET", "/control/clinro/users/me", { token })).statusCode).toBe(200);
    const deactivated = await api.request("POST", `/control/users/${target.id}/deactivate`, {
      token: await admin(),
    });
    expect(deactivated.statusCode).toBe(200);
    const member = staffMember.parse(deactivated.json());
    expect(member.status).toBe("deactivated");
    expect(member.deactivated_at).not.toBeNull();

    const refused = await api.request("GET", "/control/clinro/users/me", { token });
    expect(refused.statusCode).toBe(401);
    expect(errorBody.parse(refused.json()).code).toBe("user_deactivated");
    const search = await api.request("GET", "/control/studies/101/sites/1011/clinro_search?search_value=a", {
      token,
    });
    expect(search.statusCode).toBe(401);

    const signIn = await api.login(target.username, undefined, { remoteAddress: "10.9.0.2" });
    expect(signIn.statusCode).toBe(403);
    expect(errorBody.parse(signIn.json())).toMatchObject({
      code: "user_deactivated",
      message: "This account has been deactivated. Ask your administrator to reactivate it.",
    });
    // A wrong password says only that.
    expect((await api.login(target.username, "Wrong-Pass-1", { remoteAddress: "10.9.0.2" })).statusCode).toBe(
      400,
    );

    const reinvite = await invite({ ...coordinatorInvitation(), email: target.username });
    expect(reinvite.statusCode).toBe(400);
    expect(errorBody.parse(reinvite.json()).issues?.[0]?.message).toMatch(
      /deactivated account: reactivate it/,
    );

    // Deactivating again changes nothing.
    const again = await api.request("POST", `/control/users/${target.id}/deactivate`, {
      token: await admin(),
    });
    expect(staffMember.parse(again.json()).deactivated_at).toBe(member.deactivated_at);

    const reactivated = await api.request("POST", `/control/users/${target.id}/reactivate`, {
      token: await admin(),
    });
    expect(staffMember.parse(reactivated.json())).toMatchObject({ status: "active", deactivated_at: null });
    expect((await api.request("GET", "/control/clinro/users/me", { token })).statusCode).toBe(401);
    const fresh = await api.signIn(target.username);
    expect((await api.request("GET", "/control/clinro/users/me", { token: fresh })).statusCode).toBe(200);
  });

  it("keeps a deactivated user's past audit rows and refuses their emailed links", async () => {
    const email = freshEmail();
    const member = staffMember.parse((await invite(coordinatorInvitation(email))).json());
    const { link } = await activationLinkOf(api, email);
    const auditedBefore = await api.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, await idOf(api, "admin@demo.test")));
    await api.request("POST", `/control/users/${member.id}/deactivate`, { token: await admin() });
    expect((await activate(api, link)).statusCode).toBe(400);
    const resend = await api.request("POST", `/control/users/${member.id}/invitation`, {
      token: await admin(),
    });
    expect(resend.statusCode).toBe(409);
    expect(errorBody.parse(resend.json()).code).toBe("user_deactivated");
    const auditedAfter = await api.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, await idOf(api, "admin@demo.test")));
    expect(auditedAfter.length).toBeGreaterThan(auditedBefore.length);
    expect(auditedAfter.map((row) => row.id)).toEqual(
      expect.arrayContaining(auditedBefore.map((row) => row.id)),
    );
  });

  it("refuses an administrator's deactivation of their own account (403)", async () => {
    const adminId = await idOf(api, "admin@demo.test");
    const response = await api.request("POST", `/control/users/${adminId}/deactivate`, {
      token: await admin(),
    });
    expect(response.statusCode).toBe(403);
    expect(errorBody.parse(response.json()).code).toBe("users_deactivate_self");
  });

  it("lists every study with its sites in use for the forms", async () => {
    const response = await api.request("GET", "/control/users/study-sites", { token: await admin() });
    expect(response.statusCode).toBe(200);
    const answer = assignableStudies.parse(response.json());
    expect(answer.studies.find((study) => study.study_id === 102)?.sites.map((site) => site.site_id)).toEqual(
      [1021, 1022],
    );
  });

  it("imports a CSV: a dry run invites nobody; the run invites every user (one per email, several studies), mailing each", async () => {
    const [ana, ben] = [freshEmail("ana"), freshEmail("ben")];
    const csv = [
      "\uFEFFemail,name,management_role,study_id,role,site_ids",
      `${ana},Ana Lopez,enroller,101,Clinical Coordinator,"1011,1012"`,
      `${ana},Ana Lopez,enroller,102,11,1021`,
      `${ben},"Ben, Jr.",,103,Impartial Witness,1031`,
      "",
    ].join("\r\n");
    await admin();
    const counts = await rowCounts(api.db);
    const dry = await api.request("POST", IMPORT, { token: await admin(), body: { csv, dry_run: true } });
    expect(dry.statusCode).toBe(200);
    const plan = staffImportResponse.parse(dry.json());
    expect(plan).toMatchObject({ dry_run: true, invited: 2 });
    expect(plan.users.map((user) => [user.email, user.lines, user.management_role, user.id])).toEqual([
      [ana, [2, 3], "enroller", null],
      [ben, [4], "researcher", null],
    ]);
    expect(await rowCounts(api.db)).toEqual(counts);

    const run = await api.request("POST", IMPORT, { token: await admin(), body: { csv } });
    expect(run.statusCode).toBe(200);
    const done = staffImportResponse.parse(run.json());
    expect(done.users.every((user) => typeof user.id === "number")).toBe(true);
    const anaMember = staffMember.parse(
      (await api.request("GET", access(done.users[0]!.id!), { token: await admin() })).json(),
    );
    expect(
      anaMember.studies.map((study: StaffMember["studies"][number]) => [study.study_id, study.role]),
    ).toEqual([
      [101, "16"],
      [102, "11"],
    ]);
    expect((await activationLinkOf(api, ben)).link).toMatch(/\/users\/activate/);
    expect((await mailsTo(api.dataDir, ana)).length).toBe(1);
  });

  it("refuses a CSV with bad rows, naming every bad row and field, and invites nobody", async () => {
    const good = freshEmail();
    const csv = [
      "email,name,study_id,role,site_ids",
      `${good},Good Person,101,11,1011`,
      "not-an-email,Bad Email,101,11,1011",
      `${freshEmail()},,999,77,x`,
      "staff1@demo.test,Taken,101,11,1011",
      `${good},Good Person,101,12,1012`,
    ].join("\n");
    await admin();
    const counts = await rowCounts(api.db);
    const response = await api.request("POST", IMPORT, {
      token: await admin(),
      body: { csv, dry_run: true },
    });
    expect(response.statusCode).toBe(400);
    const refusal = staffImportRefusal.parse(response.json());
    expect(refusal.bad_rows?.map((row) => [row.line, row.issues.map((issue) => issue.field)])).toEqual([
      [3, ["email"]],
      [4, ["name", "study_id", "role", "site_ids"]],
      [5, ["email"]],
      [6, ["study_id"]],
    ]);
    expect(refusal.message).toContain("line 4");
    expect(refusal.issues?.map((issue) => issue.path)).toContain("csv[4].role");
    const unreadable = await api.request("POST", IMPORT, {
      token: await admin(),
      body: { csv: "email,name,colour\na@b.example,A,blue\n" },
    });
    expect(unreadable.statusCode).toBe(400);
    expect(errorBody.parse(unreadable.json()).message).toContain('Unknown column "colour"');
    expect(await rowCounts(api.db)).toEqual(counts);
  });
});

describeOnEachDatabase("clinro user: invite, import, resend, deactivate, reactivate", (api) => {
  const clinro = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      args,
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { database: api.handle, mail: api.app.accountMail },
    );
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("invites a user in two studies (one --study/--role/--sites group each) and mails the link", async () => {
    const email = freshEmail("cli");
    const result = await clinro(
      "user",
      "invite",
      "--email",
      email,
      "--name",
      "Dana Cole",
      "--study",
      "101",
      "--role",
      "16",
      "--sites",
      "1011,1012",
      "--study",
      "103",
      "--role",
      "Impartial Witness",
      "--sites",
      "1031",
      "--management-role",
      "enroller",
    );
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Activation link mailed to ${email} (valid 7 days)`);
    const member = staffMember.parse(
      (
        await api.request("GET", access(await idOf(api, email)), {
          token: await api.signIn("admin@demo.test"),
        })
      ).json(),
    );
    expect(member).toMatchObject({ role: "enroller", status: "invited" });
    expect(member.studies.map((study) => [study.study_id, study.role, study.sites.length])).toEqual([
      [101, "16", 2],
      [103, "Impartial Witness", 1],
    ]);
    expect((await mailsTo(api.dataDir, email)).length).toBe(1);
  });

  it("refuses a bad invitation naming the flag, and a usage error with the usage; invites nobody", async () => {
    const counts = await rowCounts(api.db);
    const wrongSite = await clinro(
      "user",
      "invite",
      "--email",
      freshEmail(),
      "--name",
      "X",
      "--study",
      "101",
      "--role",
      "11",
      "--sites",
      "1031",
    );
    expect(wrongSite.code).toBe(1);
    expect(wrongSite.err).toContain("--sites (study group 1): site 1031 is not a site in use of study 101");
    const taken = await clinro(
      "user",
      "invite",
      "--email",
      "staff1@demo.test",
      "--name",
      "X",
      "--study",
      "101",
      "--role",
      "11",
      "--sites",
      "1011",
    );
    expect(taken.err).toContain("--email: staff1@demo.test already has an account");
    const usage = await clinro(
      "user",
      "invite",
      "--email",
      freshEmail(),
      "--name",
      "X",
      "--study",
      "101",
      "--role",
      "99",
      "--sites",
      "1011",
    );
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("--role must be one of");
    expect(await rowCounts(api.db)).toEqual(counts);
  });

  it("imports a CSV after a dry run, and refuses one with bad rows naming each", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "staff-csv-"));
    const [first, second] = [freshEmail("csv"), freshEmail("csv")];
    const good = path.join(dir, "staff.csv");
    await writeFile(
      good,
      `email,name,study_id,role,site_ids\n${first},Eve Hart,101,12,1011\n${second},Finn Moss,102,13,"1021 1022"\n`,
    );
    const counts = await rowCounts(api.db);
    const dry = await clinro("user", "import", good, "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("Dry run: 2 users would be invited; nobody was.");
    expect(await rowCounts(api.db)).toEqual(counts);
    const run = await clinro("user", "import", good);
    expect(run.code).toBe(0);
    expect(run.out).toContain("Invited 2 users.");
    expect(run.out).toContain(`Activation link mailed to ${second}`);

    const bad = path.join(dir, "bad.csv");
    await writeFile(
      bad,
      `email,name,study_id,role,site_ids\n${first},Eve Hart,101,12,1011\nnope,,101,11,1011\n`,
    );
    const refused = await clinro("user", "import", bad);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("2 bad rows; nobody was invited");
    expect(refused.err).toContain(`line 2 (${first}): email ${first} already has an account`);
    expect(refused.err).toMatch(/line 3 \(nope\): email .*; name /);
  });

  it("resends, deactivates and reactivates by email", async () => {
    const email = freshEmail("cli");
    await clinro(
      "user",
      "invite",
      "--email",
      email,
      "--name",
      "Gil Park",
      "--study",
      "101",
      "--role",
      "11",
      "--sites",
      "1011",
    );
    const resent = await clinro("user", "resend", "--email", email);
    expect(resent.code).toBe(0);
    expect((await mailsTo(api.dataDir, email)).length).toBe(2);
    expect((await clinro("user", "deactivate", "--email", email)).out).toContain(`Deactivated ${email}`);
    expect((await clinro("user", "deactivate", "--email", email)).out).toContain("no changes");
    expect((await clinro("user", "resend", "--email", email)).code).toBe(1);
    const reactivated = await clinro("user", "reactivate", "--email", email);
    expect(reactivated.out).toContain("never activated their account; run user resend");
    expect((await clinro("user", "resend", "--email", "staff1@demo.test")).err).toContain(
      "already activated",
    );
  });
});
