import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { meResponse, type MeResponse } from "../../core/contracts/user.ts";
import { users } from "../../server/db/schema.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

const ME = "/control/clinro/users/me";

describeOnEachDatabase("GET and PATCH /control/clinro/users/me", (api) => {
  const getMe = async (token: string) => {
    const response = await api.request("GET", ME, { token });
    expect(response.statusCode).toBe(200);
    return meResponse.parse(response.json());
  };

  it("answers the signed-in coordinator in the shape of the meResponse contract", async () => {
    const token = await api.signIn("coordinator@demo.test");
    const response = await api.request("GET", ME, { token });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const me = meResponse.parse(response.json());
    expect(me).toMatchObject({
      username: "coordinator@demo.test",
      name: "Carmen Ortiz",
      nickname: "Carmen Ortiz",
      fname: "Carmen",
      role: "studyManager",
      is_temporary_password: false,
      has_consented: true,
      userImage: null,
      onboarding: { announcements: false },
    });
    expect(typeof me.last_login).toBe("string");
    // The password hash and the token version never leave the server.
    expect(response.body).not.toMatch(/argon2|password_hash|passwordHash|tokenVersion/);
  });

  it("keys permissions by study id, each with its role, scope, flags and sites", async () => {
    const me = await getMe(await api.signIn("coordinator@demo.test"));
    expect(Object.keys(me.permissions).sort()).toEqual(["101", "102", "103"]);
    for (const [key, permission] of Object.entries(me.permissions)) {
      expect(permission.study_id).toBe(Number(key));
      expect(permission.role).toBe("16");
      expect(permission.scope).toEqual(expect.arrayContaining(["ca", "cp"]));
      expect(permission.study_name).not.toBe("");
    }
    expect(me.permissions["101"]).toMatchObject({
      study_name: "MDD-301 Depression Maintenance",
      sms_enabled: false,
      consent_2: true,
      sites: [
        { site_id: 1011, site_label: "Boston Clinical Research Center", tree_level: 4, is_virtual: false },
        { site_id: 1012, site_label: "Lakeside Psychiatry Unit", tree_level: 4, is_virtual: false },
      ],
    });
    expect(me.permissions["102"]).toMatchObject({
      sms_enabled: true,
      consent_2: false,
      sites: [
        { site_id: 1021, site_label: "Remote Visits Hub", tree_level: 4, is_virtual: true },
        { site_id: 1022, site_label: "Northern Region Office", tree_level: 3, is_virtual: false },
      ],
    });
    expect(me.permissions["103"]).toMatchObject({
      sms_enabled: false,
      consent_2: false,
      sites: [{ site_id: 1031, site_label: "Riverside Medical Group", tree_level: 2, is_virtual: false }],
    });
  });

  it("lists only the studies the user has a permission in, with the user's role in each", async () => {
    const staff3 = await getMe(await api.signIn("staff3@demo.test"));
    expect(Object.keys(staff3.permissions).sort()).toEqual(["101", "103"]);
    expect(staff3.permissions["101"]?.role).toBe("13");
    expect(staff3.permissions["103"]?.role).toBe("13");

    const witness = await getMe(await api.signIn("witness@demo.test"));
    expect(Object.keys(witness.permissions)).toEqual(["101"]);
    expect(witness.permissions["101"]?.role).toBe("Impartial Witness");
    expect(witness.role).toBe("enroller");
  });

  it("answers the administrator's user scope and the temporary-password flag", async () => {
    const admin = await getMe(await api.signIn("admin@demo.test"));
    expect(admin.role).toBe("administrator");
    expect(admin.scope).toContain("wu");
    const newUser = await getMe(await api.signIn("newuser@demo.test"));
    expect(newUser.is_temporary_password).toBe(true);
  });

  it("updates nickname, name and phone, answers the updated user and keeps it", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("PATCH", ME, {
      token,
      body: {
        nickname: "Dr. Sam",
        name: "Samantha Reyes",
        phone: "+15551234567",
        isPhoneEnabled: true,
        countryDialCode: "+1",
      },
    });
    expect(response.statusCode).toBe(200);
    const updated = meResponse.parse(response.json());
    const expected = {
      id: user.id,
      username: user.username,
      nickname: "Dr. Sam",
      name: "Samantha Reyes",
      phone: "+15551234567",
      isPhoneEnabled: true,
      countryDialCode: "+1",
    };
    expect(updated).toMatchObject(expected);
    expect(await getMe(token)).toMatchObject(expected);
  });

  it("takes only the editable fields from a whole user sent back with changes", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const before = await getMe(token);
    const sent: MeResponse = {
      ...before,
      nickname: "Whole-user edit",
      phone: "5550001111",
      username: "someone-else@demo.test",
      role: "administrator",
      scope: ["wu"],
      is_temporary_password: true,
      permissions: {},
    };
    const response = await api.request("PATCH", ME, { token, body: sent });
    expect(response.statusCode).toBe(200);
    const after = await getMe(token);
    expect(after).toEqual({ ...before, nickname: "Whole-user edit", phone: "5550001111" });
  });

  it("answers the unchanged user to a PATCH with nothing editable in it", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const before = await getMe(token);
    const response = await api.request("PATCH", ME, { token, body: {} });
    expect(response.statusCode).toBe(200);
    expect(meResponse.parse(response.json())).toEqual(before);
  });

  it.each([
    ["nickname", { nickname: "" }, /nickname/],
    ["nickname", { nickname: "   " }, /nickname/],
    ["name", { name: "" }, /name/],
    ["phone", { phone: "555-CALL-NOW" }, /phone/],
    ["phone", { phone: "12ab34" }, /phone/],
    ["countryDialCode", { countryDialCode: "one" }, /countryDialCode/],
    ["isPhoneEnabled", { isPhoneEnabled: "yes" }, /isPhoneEnabled/],
  ])("answers 400 naming %s for %j and changes nothing", async (field, invalid, messagePattern) => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const before = await getMe(token);
    const response = await api.request("PATCH", ME, {
      token,
      // A valid change rides along: it must not be applied either.
      body: { nickname: "Should not stick", name: "Should Not Stick", ...invalid },
    });
    expect(response.statusCode).toBe(400);
    const error = errorBody.parse(response.json());
    expect(error.message).toMatch(messagePattern);
    expect(error.issues?.map((issue) => issue.path)).toContain(field);
    expect(await getMe(token)).toEqual(before);
  });

  it("answers 400 to a PATCH without a JSON object body and changes nothing", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const before = await getMe(token);
    const response = await api.request("PATCH", ME, { token, body: ["nickname", "x"] });
    expect(response.statusCode).toBe(400);
    errorBody.parse(response.json());
    expect(await getMe(token)).toEqual(before);
  });

  it("changes only the signed-in user's own row", async () => {
    const user = await api.createUser();
    const bystander = await api.createUser();
    const [bystanderBefore] = await api.db.select().from(users).where(eq(users.id, bystander.id));
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("PATCH", ME, { token, body: { id: bystander.id, nickname: "Mine" } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, nickname: "Mine" });
    const [bystanderAfter] = await api.db.select().from(users).where(eq(users.id, bystander.id));
    expect(bystanderAfter).toEqual(bystanderBefore);
  });
});
