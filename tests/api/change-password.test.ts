import { expect, it } from "vitest";
import { changePasswordResponse, loginResponse, tokenPayload } from "../../core/contracts/auth.ts";
import { COMMON_PASSWORD_CODE, COMMON_PASSWORD_MESSAGE } from "../../core/contracts/common-passwords.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import { meResponse } from "../../core/contracts/user.ts";
import { DEMO_PASSWORD, decodeTokenPayload, describeOnEachDatabase } from "../support/api-harness.ts";

const CHANGE = "/control/change_password";
const ME = "/control/clinro/users/me";
const NEW_PASSWORD = "Fresh&Strong42";

describeOnEachDatabase("POST /control/change_password", (api) => {
  const status = async (token: string) => (await api.request("GET", ME, { token })).statusCode;
  const loginStatus = async (username: string, password: string) =>
    (await api.login(username, password, { remoteAddress: "10.3.0.1" })).statusCode;

  it("answers 400 wrong_old_password to a wrong current password and changes nothing", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("POST", CHANGE, {
      token,
      body: { old_password: "NotMyPass1!", new_password: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(400);
    const error = errorBody.parse(response.json());
    expect(error.code).toBe("wrong_old_password");
    expect(response.json()).not.toHaveProperty("token");
    expect(await status(token)).toBe(200);
    expect(await loginStatus(user.username, user.password)).toBe(200);
    expect(await loginStatus(user.username, NEW_PASSWORD)).toBe(400);
  });

  it.each([
    ["shorter than 8 characters", "Sh0rt!"],
    ["the word short", "short"],
    ["without an uppercase letter", "alllowercase1!"],
    ["without a lowercase letter", "ALLUPPERCASE1!"],
    ["without a digit", "NoDigitsHere!"],
    ["without a special character", "NoSpecial123"],
    ["with a special character outside ~!@#$%^&*?", "Bracket(123)x"],
    ["empty", ""],
  ])("answers 400 to a new password %s (%j) and changes nothing", async (_rule, newPassword) => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("POST", CHANGE, {
      token,
      body: { old_password: user.password, new_password: newPassword },
    });
    expect(response.statusCode).toBe(400);
    const error = errorBody.parse(response.json());
    expect(error.message).toContain("new_password");
    expect(error.issues?.map((issue) => issue.path)).toContain("new_password");
    expect(await status(token)).toBe(200);
    expect(await loginStatus(user.username, user.password)).toBe(200);
  });

  it.each(["Password1!", "Qwerty123!", "Iloveyou2!", "Dragon&&99"])(
    "answers 400 common_password to a common password that passes the five rules (%s) and changes nothing",
    async (common) => {
      const user = await api.createUser();
      const token = await api.signIn(user.username, user.password);
      const response = await api.request("POST", CHANGE, {
        token,
        body: { old_password: user.password, new_password: common },
      });
      expect(response.statusCode).toBe(400);
      const error = errorBody.parse(response.json());
      expect(error).toMatchObject({ code: COMMON_PASSWORD_CODE, message: COMMON_PASSWORD_MESSAGE });
      expect(error.issues?.map((issue) => issue.path)).toEqual(["new_password"]);
      expect(await status(token)).toBe(200);
      expect(await loginStatus(user.username, user.password)).toBe(200);
      expect(await loginStatus(user.username, common)).toBe(400);
    },
  );

  it("accepts a password whose core is not a common one", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("POST", CHANGE, {
      token,
      body: { old_password: user.password, new_password: "Heron7!Lantern" },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ["old_password", { new_password: NEW_PASSWORD }],
    ["new_password", { old_password: DEMO_PASSWORD }],
  ])("answers 400 naming a missing %s", async (field, body) => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("POST", CHANGE, { token, body });
    expect(response.statusCode).toBe(400);
    expect(errorBody.parse(response.json()).message).toContain(field);
    expect(await status(token)).toBe(200);
  });

  it("answers a new token and revokes every earlier token of the user", async () => {
    const user = await api.createUser();
    const caller = await api.signIn(user.username, user.password);
    const otherSession = await api.signIn(user.username, user.password);
    const bystander = await api.createUser();
    const bystanderToken = await api.signIn(bystander.username, bystander.password);

    const response = await api.request("POST", CHANGE, {
      token: caller,
      body: { old_password: user.password, new_password: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const { token: fresh } = changePasswordResponse.parse(response.json());
    expect(tokenPayload.parse(decodeTokenPayload(fresh))).toMatchObject({
      id: user.id,
      username: user.username,
    });

    expect(await status(caller)).toBe(401);
    expect(await status(otherSession)).toBe(401);
    expect((await api.request("GET", "/control/studies/101", { token: otherSession })).statusCode).toBe(401);
    expect(await status(fresh)).toBe(200);
    expect((await api.request("GET", "/control/studies/101", { token: fresh })).statusCode).toBe(200);
    // Another user's session is untouched.
    expect(await status(bystanderToken)).toBe(200);
  });

  it("lets the user sign in with the new password and no longer with the old one", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const response = await api.request("POST", CHANGE, {
      token,
      body: { old_password: user.password, new_password: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(await loginStatus(user.username, NEW_PASSWORD)).toBe(200);
    expect(await loginStatus(user.username, user.password)).toBe(400);
  });

  it("accepts a new password with spaces in it", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const withSpaces = "Correct Horse 9!";
    const response = await api.request("POST", CHANGE, {
      token,
      body: { old_password: user.password, new_password: withSpaces },
    });
    expect(response.statusCode).toBe(200);
    expect(await loginStatus(user.username, withSpaces)).toBe(200);
  });

  it("answers 401 to a second change with a token the first change revoked", async () => {
    const user = await api.createUser();
    const token = await api.signIn(user.username, user.password);
    const first = await api.request("POST", CHANGE, {
      token,
      body: { old_password: user.password, new_password: NEW_PASSWORD },
    });
    expect(first.statusCode).toBe(200);
    const second = await api.request("POST", CHANGE, {
      token,
      body: { old_password: NEW_PASSWORD, new_password: "Yet&Another77" },
    });
    expect(second.statusCode).toBe(401);
    expect(await loginStatus(user.username, NEW_PASSWORD)).toBe(200);
  });

  it("clears is_temporary_password of newuser@demo.test", async () => {
    const signIn = loginResponse.parse(
      (await api.login("newuser@demo.test", DEMO_PASSWORD, { remoteAddress: "10.3.0.2" })).json(),
    );
    expect(signIn.is_temporary_password).toBe(true);
    const response = await api.request("POST", CHANGE, {
      token: signIn.token,
      body: { old_password: DEMO_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const { token } = changePasswordResponse.parse(response.json());
    const me = meResponse.parse((await api.request("GET", ME, { token })).json());
    expect(me.is_temporary_password).toBe(false);
    const again = loginResponse.parse(
      (await api.login("newuser@demo.test", NEW_PASSWORD, { remoteAddress: "10.3.0.2" })).json(),
    );
    expect(again.is_temporary_password).toBe(false);
  });
});
