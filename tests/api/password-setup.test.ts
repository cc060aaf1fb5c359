import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { loginResponse } from "../../core/contracts/auth.ts";
import { COMMON_PASSWORD_CODE, COMMON_PASSWORD_MESSAGE } from "../../core/contracts/common-passwords.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import {
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
  PASSWORD_RULES_MESSAGE,
  TOKEN_REJECTED_MESSAGE,
  passwordSetupTokenPayload,
  setupPasswordResponse,
  verifyTokenResponse,
} from "../../core/contracts/password-setup.ts";
import { meResponse } from "../../core/contracts/user.ts";
import { accountTokens, users } from "../../server/db/schema.ts";
import { hashAccountToken } from "../../server/users/account-tokens.ts";
import { inviteUser } from "../../server/users/invite-user.ts";
import { DEMO_PASSWORD, decodeTokenPayload, describeOnEachDatabase } from "../support/api-harness.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";

const VERIFY = "/control/users/verify_token";
const SETUP = "/control/users/setup_password";
const ME = "/control/clinro/users/me";
const NEW_PASSWORD = "Chosen&Strong42";

describeOnEachDatabase("following an emailed link: verify_token and setup_password", (api) => {
  let inviteCounter = 0;

  /** Asks for a reset as the user would, and answers the token of the link in the mail. */
  const resetTokenFor = async (username: string) => {
    await api.app.backgroundTasks.drain();
    const before = (await mailsTo(api.dataDir, username)).length;
    const response = await api.request("POST", "/control/users/forgot_password", {
      body: { username, platform: "clinro" },
    });
    expect(response.statusCode).toBe(200);
    await api.app.backgroundTasks.drain();
    const mails = await mailsTo(api.dataDir, username);
    expect(mails).toHaveLength(before + 1);
    const link = mails.at(-1)!.links[0]!;
    expect(link).toMatch(/^http:\/\/localhost\/users\/reset\?token=/);
    return tokenOfLink(link);
  };
  const verify = (token: unknown) => api.request("POST", VERIFY, { body: { token } });
  const setup = (token: string, password = NEW_PASSWORD, extra: Record<string, unknown> = {}) =>
    api.request("POST", SETUP, {
      body: { password, password_confirmation: password, token, platform_type: "clinro", ...extra },
    });
  const loginStatus = async (username: string, password: string) =>
    (await api.login(username, password, { remoteAddress: "10.7.0.1" })).statusCode;
  const expectTokenRejected = (response: Awaited<ReturnType<typeof verify>>) => {
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json())).toMatchObject({
      message: TOKEN_REJECTED_MESSAGE,
      code: "invalid_token",
    });
  };
  const invite = async () => {
    inviteCounter += 1;
    const username = `invited${inviteCounter}-${Date.now().toString(36)}@test.example`;
    const created = await inviteUser(api.app.accountMail, {
      username,
      name: `Invited Person ${inviteCounter}`,
      studies: { 101: "12" },
    });
    const mails = await mailsTo(api.dataDir, username);
    expect(mails).toHaveLength(1);
    return { ...created, mail: mails[0]! };
  };

  it("answers a reset link's token with a JWT naming the user and the link's expiry, and hasPassword true", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const response = await verify(token);
    expect(response.statusCode).toBe(200);
    const answer = verifyTokenResponse.parse(response.json());
    expect(answer.hasPassword).toBe(true);
    const payload = passwordSetupTokenPayload.parse(decodeTokenPayload(answer.token));
    expect(payload).toMatchObject({ id: user.id, username: user.username, purpose: "password_setup" });
    // A reset link works for an hour.
    expect(payload.exp - Date.now() / 1000).toBeGreaterThan(59 * 60);
    expect(payload.exp - Date.now() / 1000).toBeLessThanOrEqual(60 * 60 + 1);
  });

  it("never accepts verify_token's JWT as a session", async () => {
    const user = await api.createUser();
    const answer = verifyTokenResponse.parse((await verify(await resetTokenFor(user.username))).json());
    expect((await api.request("GET", ME, { token: answer.token })).statusCode).toBe(401);
    expect((await api.request("GET", "/control/studies/101", { token: answer.token })).statusCode).toBe(401);
  });

  it("does not use up the link: verify_token can be asked again", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    expect((await verify(token)).statusCode).toBe(200);
    expect((await verify(token)).statusCode).toBe(200);
  });

  it("sets the password from a reset link: the new one signs in, the old one no longer does", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const response = await setup(token);
    expect(response.statusCode).toBe(200);
    expect(setupPasswordResponse.parse(response.json()).username).toBe(user.username);
    expect(await loginStatus(user.username, NEW_PASSWORD)).toBe(200);
    expect(await loginStatus(user.username, user.password)).toBe(400);
  });

  it("signs out every earlier session of the user and clears is_temporary_password", async () => {
    const user = await api.createUser({ temporary: true });
    const earlier = await api.signIn(user.username, user.password);
    expect((await api.request("GET", ME, { token: earlier })).statusCode).toBe(200);
    expect((await setup(await resetTokenFor(user.username))).statusCode).toBe(200);
    expect((await api.request("GET", ME, { token: earlier })).statusCode).toBe(401);
    const signIn = loginResponse.parse(
      (await api.login(user.username, NEW_PASSWORD, { remoteAddress: "10.7.0.2" })).json(),
    );
    expect(signIn.is_temporary_password).toBe(false);
    const me = meResponse.parse((await api.request("GET", ME, { token: signIn.token })).json());
    expect(me.is_temporary_password).toBe(false);
  });

  it("uses a link once: a second setup_password and a later verify_token are refused", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    expect((await setup(token)).statusCode).toBe(200);
    expectTokenRejected(await setup(token, "Another&Pass77"));
    expectTokenRejected(await verify(token));
    expect(await loginStatus(user.username, NEW_PASSWORD)).toBe(200);
    expect(await loginStatus(user.username, "Another&Pass77")).toBe(400);
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const answers = await Promise.all([setup(token, "First&Pass11"), setup(token, "Second&Pass22")]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const winner =
      answers.findIndex((answer) => answer.statusCode === 200) === 0 ? "First&Pass11" : "Second&Pass22";
    expect(await loginStatus(user.username, winner)).toBe(200);
  });

  it("retires the user's other open links once a password is set", async () => {
    const user = await api.createUser();
    const first = await resetTokenFor(user.username);
    const second = await resetTokenFor(user.username);
    // A newer reset link replaces the older one.
    expectTokenRejected(await verify(first));
    expect((await setup(second)).statusCode).toBe(200);
    expectTokenRejected(await verify(second));
  });

  it("refuses an expired link", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    await api.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.tokenHash, hashAccountToken(token)));
    expectTokenRejected(await verify(token));
    expectTokenRejected(await setup(token));
    expect(await loginStatus(user.username, user.password)).toBe(200);
  });

  it.each([
    ["an unknown token", "x".repeat(43)],
    ["a token with one character changed", null],
    ["a session token", "session"],
  ])("refuses %s with 'Unable to authenticate user.'", async (_case, given) => {
    const user = await api.createUser();
    let token = given;
    if (given === null) {
      const real = await resetTokenFor(user.username);
      token = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
    } else if (given === "session") {
      token = await api.signIn(user.username, user.password);
    }
    expectTokenRejected(await verify(token));
    expectTokenRejected(await setup(token!));
  });

  it("stores only a hash of the link's token", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const rows = await api.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashAccountToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it.each([
    ["shorter than 8 characters", "Sh0rt!"],
    ["without an uppercase letter", "alllower1!"],
    ["without a lowercase letter", "ALLUPPER1!"],
    ["without a digit", "NoDigits!!"],
    ["without a special character", "NoSpecial12"],
  ])("answers 400 to a password %s, and the link still works afterwards", async (_rule, password) => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const response = await setup(token, password);
    expect(response.statusCode).toBe(400);
    const body = errorBody.parse(response.json());
    expect(body.message).toContain(PASSWORD_RULES_MESSAGE);
    expect(body.issues?.map((issue) => issue.path)).toEqual(["password"]);
    expect((await verify(token)).statusCode).toBe(200);
    expect((await setup(token)).statusCode).toBe(200);
  });

  it("answers 400 'Passwords do not match' when the confirmation differs, and changes nothing", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const response = await setup(token, NEW_PASSWORD, { password_confirmation: `${NEW_PASSWORD}x` });
    expect(response.statusCode).toBe(400);
    const body = errorBody.parse(response.json());
    expect(body.message).toContain(PASSWORDS_DO_NOT_MATCH_MESSAGE);
    expect(body.issues?.map((issue) => issue.path)).toEqual(["password_confirmation"]);
    expect(await loginStatus(user.username, user.password)).toBe(200);
    expect((await verify(token)).statusCode).toBe(200);
  });

  it.each([
    ["platform_type", { platform_type: "participant" }],
    ["token", { token: "" }],
    ["password_confirmation", { password_confirmation: undefined }],
  ])("answers 400 naming %s when it is wrong or missing", async (field, extra) => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const response = await setup(token, NEW_PASSWORD, extra);
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain(field);
  });

  it.each(["Password1!", "Summer2024!", "1!Qwerty123"])(
    "answers 400 common_password to a common password dressed up for the rules (%s), and keeps the link usable",
    async (common) => {
      const user = await api.createUser();
      const token = await resetTokenFor(user.username);
      const response = await setup(token, common);
      expect(response.statusCode).toBe(400);
      const body = errorBody.parse(response.json());
      expect(body).toMatchObject({ code: COMMON_PASSWORD_CODE, message: COMMON_PASSWORD_MESSAGE });
      expect(body.issues?.map((issue) => issue.path)).toEqual(["password"]);
      expect(await loginStatus(user.username, common)).toBe(400);
      expect(await loginStatus(user.username, user.password)).toBe(200);
      // The link was not used up: a better password goes through.
      expect((await setup(token)).statusCode).toBe(200);
    },
  );

  it("checks old_password when it is given: a wrong one is refused, the right one accepted", async () => {
    const user = await api.createUser();
    const token = await resetTokenFor(user.username);
    const wrong = await setup(token, NEW_PASSWORD, { old_password: "Not&MyPass1" });
    expect(wrong.statusCode).toBe(400);
    expect(errorBody.parse(wrong.json()).code).toBe("wrong_old_password");
    expect((await setup(token, NEW_PASSWORD, { old_password: DEMO_PASSWORD })).statusCode).toBe(200);
    expect(await loginStatus(user.username, NEW_PASSWORD)).toBe(200);
  });

  it("answers verify_token 400 naming token when there is none", async () => {
    for (const body of [{}, { token: "" }, { token: 12 }]) {
      const response = await api.request("POST", VERIFY, { body });
      expect(response.statusCode).toBe(400);
      expect(errorBody.parse(response.json()).message).toContain("token");
    }
  });

  it("activates a new user: the mailed /users/activate link sets the first password, then the user signs in", async () => {
    const invited = await invite();
    expect(invited.mail.subject).toMatch(/activate/i);
    expect(invited.mail.text).toContain(invited.username);
    const link = invited.mail.links[0]!;
    expect(link).toMatch(/^http:\/\/localhost\/users\/activate\?token=[A-Za-z0-9_-]{40,}$/);

    // No password works before activation.
    expect(await loginStatus(invited.username, NEW_PASSWORD)).toBe(400);

    const verified = verifyTokenResponse.parse((await verify(tokenOfLink(link))).json());
    expect(verified.hasPassword).toBe(false);
    const payload = passwordSetupTokenPayload.parse(decodeTokenPayload(verified.token));
    expect(payload).toMatchObject({ id: invited.id, username: invited.username });
    // An activation link works for 7 days.
    expect(payload.exp - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 60);

    expect((await setup(tokenOfLink(link))).statusCode).toBe(200);
    const signIn = loginResponse.parse(
      (await api.login(invited.username, NEW_PASSWORD, { remoteAddress: "10.7.0.3" })).json(),
    );
    const me = meResponse.parse((await api.request("GET", ME, { token: signIn.token })).json());
    expect(me).toMatchObject({ username: invited.username, is_temporary_password: false });
    expect(me.permissions["101"]?.role).toBe("12");
    expectTokenRejected(await verify(tokenOfLink(link)));
  });

  it("answers hasPassword true for an activation link once a password has been set another way", async () => {
    const invited = await invite();
    const activation = tokenOfLink(invited.mail.links[0]!);
    const [row] = await api.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.username, "staff1@demo.test"));
    await api.db.update(users).set({ passwordHash: row!.hash }).where(eq(users.id, invited.id));
    expect(verifyTokenResponse.parse((await verify(activation)).json()).hasPassword).toBe(true);
  });

  it("keeps the seeded pending@demo.test from signing in before activation", async () => {
    expect(await loginStatus("pending@demo.test", DEMO_PASSWORD)).toBe(400);
    expect(await loginStatus("pending@demo.test", "")).toBe(400);
  });
});
