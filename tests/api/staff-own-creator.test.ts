/**
 * The user who created you (spec 01 section 4, "Editing users": editing another user needs a
 * target who is not the editor's creator): an administrator invited by another administrator
 * may not change the role, studies or sites of that administrator, deactivate, reactivate or
 * re-invite them, through the staff-access calls any more than through the edit call; each
 * refusal is a 403 that changes nothing. Anyone else, they manage as before, and their creator
 * manages them.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { staffMember } from "../../core/contracts/staff.ts";
import { users } from "../../server/db/schema.ts";
import { describeOnEachDatabase, type ApiHarness } from "../support/api-harness.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";
import { rowCounts } from "../support/row-counts.ts";

const NEW_PASSWORD = "Chosen&Strong42";
const access = (userId: number) => `/control/users/${userId}/access`;
const ADMINISTRATOR_ACCESS = {
  management_role: "administrator",
  studies: [{ study_id: 101, role: "16", site_ids: [1011] }],
};

/** An administrator of their own (not the demo's), signed in. */
async function administrator(api: ApiHarness) {
  const user = await api.createUser();
  await api.db
    .update(users)
    .set({ role: "administrator", scope: ["wu"] })
    .where(eq(users.id, user.id));
  return { id: user.id, token: await api.signIn(user.username, user.password) };
}

/** An administrator invited by `creator` through the invitation call, activated and signed in. */
async function invitedAdministrator(api: ApiHarness, creatorToken: string) {
  const email = `second-admin-${randomUUID().slice(0, 8)}@site.example`;
  const invited = await api.request("POST", "/control/users/invitations", {
    token: creatorToken,
    body: { email, name: "Ines Second", ...ADMINISTRATOR_ACCESS },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  await api.app.backgroundTasks.drain();
  const link = (await mailsTo(api.dataDir, email)).at(-1)!.links[0]!;
  const activated = await api.request("POST", "/control/users/setup_password", {
    body: {
      token: tokenOfLink(link),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
      platform_type: "clinro",
    },
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return { id: staffMember.parse(invited.json()).id, token: await api.signIn(email, NEW_PASSWORD) };
}

describeOnEachDatabase("the user who created you", (api) => {
  it("refuses (403) every staff-access call on one's creator, and the edit call still does; nothing changes", async () => {
    const creator = await administrator(api);
    const created = await invitedAdministrator(api, creator.token);
    const creatorBefore = staffMember.parse(
      (await api.request("GET", access(creator.id), { token: created.token })).json(),
    );
    const counts = await rowCounts(api.db);

    const probes: [string, string, unknown?][] = [
      ["PUT", access(creator.id), { ...ADMINISTRATOR_ACCESS, management_role: "enroller" }],
      // The same management role, every study taken away.
      ["PUT", access(creator.id), { management_role: "administrator", studies: [] }],
      ["POST", `/control/users/${creator.id}/deactivate`],
      ["POST", `/control/users/${creator.id}/reactivate`],
      ["POST", `/control/users/${creator.id}/invitation`],
      // The edit page's call.
      ["PATCH", `/control/users/${creator.id}`, { role: "enroller" }],
    ];
    for (const [method, url, body] of probes) {
      const response = await api.request(method as "POST", url, { token: created.token, body });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(errorBody.parse(response.json()), `${method} ${url}`).toEqual({
        message: "You may not edit the user who created your account.",
        code: "users_edit_creator",
      });
    }
    expect(await rowCounts(api.db)).toEqual(counts);
    expect(
      staffMember.parse((await api.request("GET", access(creator.id), { token: created.token })).json()),
    ).toEqual(creatorBefore);
    expect(creatorBefore).toMatchObject({ role: "administrator", status: "active" });
  });

  it("leaves everyone else to manage: the created administrator manages others, the creator manages them", async () => {
    const creator = await administrator(api);
    const created = await invitedAdministrator(api, creator.token);
    const other = await api.createUser();

    const changed = await api.request("PUT", access(other.id), {
      token: created.token,
      body: { management_role: "enroller", studies: [{ study_id: 101, role: "11", site_ids: [1011] }] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(staffMember.parse(changed.json()).role).toBe("enroller");
    const deactivatedOther = await api.request("POST", `/control/users/${other.id}/deactivate`, {
      token: created.token,
    });
    expect(deactivatedOther.statusCode).toBe(200);

    const demoted = await api.request("PUT", access(created.id), {
      token: creator.token,
      body: { ...ADMINISTRATOR_ACCESS, management_role: "studyManager" },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    const deactivated = await api.request("POST", `/control/users/${created.id}/deactivate`, {
      token: creator.token,
    });
    expect(staffMember.parse(deactivated.json()).status).toBe("deactivated");
  });
});
