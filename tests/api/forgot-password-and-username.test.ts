import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { accountMailAccepted } from "../../core/contracts/password-setup.ts";
import { ACCOUNT_MAILS_PER_HOUR } from "../../server/users/account-mail.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { mailsTo, readMailDrop, tokenOfLink } from "../support/mail-drop.ts";

const FORGOT_PASSWORD = "/control/users/forgot_password";
const FORGOT_USERNAME = "/control/participants/me/forgot_username";

describeOnEachDatabase(
  "POST /control/users/forgot_password and /control/participants/me/forgot_username",
  (api) => {
    /** The mails to an address once the work the requests started has finished. */
    const settledMailsTo = async (address: string) => {
      await api.app.backgroundTasks.drain();
      return mailsTo(api.dataDir, address);
    };
    const forgotPassword = (username: string, platform = "clinro") =>
      api.request("POST", FORGOT_PASSWORD, { body: { username, platform } });

    it("answers 200 with one and the same body whether the username has an account or not", async () => {
      const user = await api.createUser();
      const known = await forgotPassword(user.username);
      const unknown = await forgotPassword("nobody-here@test.example");
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      expect(accountMailAccepted.parse(known.json()).message).toMatch(/email/i);
    });

    it("mails an existing user a single link to /users/reset with a token, and mails nobody for an unknown username", async () => {
      const user = await api.createUser();
      await api.app.backgroundTasks.drain();
      const before = (await readMailDrop(api.dataDir)).length;
      await forgotPassword("nobody-at-all@test.example");
      expect(await settledMailsTo("nobody-at-all@test.example")).toEqual([]);
      expect((await readMailDrop(api.dataDir)).length).toBe(before);

      await forgotPassword(user.username);
      const [mail] = await settledMailsTo(user.username);
      expect(mail).toBeDefined();
      expect(mail!.to).toContain(user.username);
      expect(mail!.from).toContain("no-reply@localhost");
      expect(mail!.subject).toMatch(/reset/i);
      expect(mail!.links).toHaveLength(1);
      expect(mail!.links[0]).toMatch(/^http:\/\/localhost\/users\/reset\?token=[A-Za-z0-9_-]{40,}$/);
      expect(mail!.html).toContain(tokenOfLink(mail!.links[0]!));
    });

    it("finds the account whatever the case and surrounding spaces of the username", async () => {
      const user = await api.createUser();
      await forgotPassword(`  ${user.username.toUpperCase()} `);
      expect(await settledMailsTo(user.username)).toHaveLength(1);
    });

    it("sends a new link each time, each with another token", async () => {
      const user = await api.createUser();
      await forgotPassword(user.username);
      await forgotPassword(user.username);
      const mails = await settledMailsTo(user.username);
      expect(mails).toHaveLength(2);
      expect(tokenOfLink(mails[0]!.links[0]!)).not.toBe(tokenOfLink(mails[1]!.links[0]!));
    });

    it(`sends at most ${ACCOUNT_MAILS_PER_HOUR} reset mails an hour to one account, answering every request alike`, async () => {
      const user = await api.createUser();
      const bodies = new Set<string>();
      for (let attempt = 0; attempt < ACCOUNT_MAILS_PER_HOUR + 2; attempt++) {
        const response = await forgotPassword(user.username);
        expect(response.statusCode).toBe(200);
        bodies.add(response.body);
      }
      expect(bodies.size).toBe(1);
      expect(await settledMailsTo(user.username)).toHaveLength(ACCOUNT_MAILS_PER_HOUR);
    });

    it.each([
      ["no username", { platform: "clinro" }, "username"],
      ["a blank username", { username: "  ", platform: "clinro" }, "username"],
      ["another platform", { username: "staff1@demo.test", platform: "participant" }, "platform"],
      ["no platform", { username: "staff1@demo.test" }, "platform"],
    ])("answers 400 to %s, naming the field", async (_case, body, field) => {
      const response = await api.request("POST", FORGOT_PASSWORD, { body });
      expect(response.statusCode).toBe(400);
      expect(errorBody.parse(response.json()).message).toContain(field);
    });

    it("needs no token", async () => {
      const response = await api.request("POST", FORGOT_PASSWORD, {
        authorization: "Bearer not-a-token",
        body: { username: "staff1@demo.test", platform: "clinro" },
      });
      expect(response.statusCode).toBe(200);
    });

    it("forgot_username answers 200 with one and the same body whether the email has an account or not", async () => {
      const user = await api.createUser();
      const known = await api.request("POST", FORGOT_USERNAME, { body: { email: user.username } });
      const unknown = await api.request("POST", FORGOT_USERNAME, { body: { email: "no-one@test.example" } });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      accountMailAccepted.parse(known.json());
      expect(await settledMailsTo("no-one@test.example")).toEqual([]);
    });

    it("forgot_username mails the username, which is the login email, with a link to sign in", async () => {
      const user = await api.createUser();
      await api.request("POST", FORGOT_USERNAME, { body: { email: user.username.toUpperCase() } });
      const [mail] = await settledMailsTo(user.username);
      expect(mail!.subject).toMatch(/username/i);
      expect(mail!.text).toContain(user.username);
      expect(mail!.links).toEqual(["http://localhost/login"]);
      // A reminder carries no token: it cannot set a password.
      expect(mail!.text).not.toMatch(/token=/);
    });

    it(`forgot_username sends at most ${ACCOUNT_MAILS_PER_HOUR} reminders an hour to one account`, async () => {
      const user = await api.createUser();
      for (let attempt = 0; attempt < ACCOUNT_MAILS_PER_HOUR + 1; attempt++) {
        expect(
          (await api.request("POST", FORGOT_USERNAME, { body: { email: user.username } })).statusCode,
        ).toBe(200);
      }
      expect(await settledMailsTo(user.username)).toHaveLength(ACCOUNT_MAILS_PER_HOUR);
    });

    it("forgot_username answers 400 naming email when there is none", async () => {
      for (const body of [{}, { email: "" }, { email: 42 }]) {
        const response = await api.request("POST", FORGOT_USERNAME, { body });
        expect(response.statusCode).toBe(400);
        expect(errorBody.parse(response.json()).message).toContain("email");
      }
    });
  },
);
