import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginResponse } from "../../core/contracts/auth.ts";
import { verifyTokenResponse } from "../../core/contracts/password-setup.ts";
import { readEnv } from "../../server/env.ts";
import { startServer } from "../../server/start.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";

const PUBLIC_URL = "https://portal.test.example";

describe("npm start on an empty database without SMTP_URL", () => {
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "clinro-start-"));
    const env = readEnv({ DATA_DIR: dataDir, SEED: "demo", LOG_LEVEL: "silent", PUBLIC_URL, PORT: "8123" });
    server = await startServer(env, { kind: "pglite" });
  });
  afterAll(async () => {
    await server?.app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("writes the activation mail of the demo's pending@demo.test to DATA_DIR/mail, linking to PUBLIC_URL", async () => {
    const [mail] = await mailsTo(dataDir, "pending@demo.test");
    expect(mail?.file.startsWith(path.join(dataDir, "mail"))).toBe(true);
    expect(mail!.links[0]).toMatch(/^https:\/\/portal\.test\.example\/users\/activate\?token=/);
  });

  it("lets pending@demo.test follow that link, choose a password and sign in", async () => {
    const app = server!.app;
    const [mail] = await mailsTo(dataDir, "pending@demo.test");
    const token = tokenOfLink(mail!.links[0]!);
    const verified = await app.inject({
      method: "POST",
      url: "/control/users/verify_token",
      payload: { token },
    });
    expect(verifyTokenResponse.parse(verified.json()).hasPassword).toBe(false);
    const password = "Pending&Active9";
    const setup = await app.inject({
      method: "POST",
      url: "/control/users/setup_password",
      payload: { password, password_confirmation: password, token, platform_type: "clinro" },
    });
    expect(setup.statusCode).toBe(200);
    const login = await app.inject({
      method: "POST",
      url: "/control/clinro/login",
      payload: { username: "pending@demo.test", password },
    });
    expect(login.statusCode).toBe(200);
    expect(loginResponse.parse(login.json()).is_temporary_password).toBe(false);
  });
});

describe("the mail settings of the environment", () => {
  it("defaults PUBLIC_URL to unset (http://localhost:PORT at start) and MAIL_FROM to a no-reply address", () => {
    const env = readEnv({});
    expect(env.PUBLIC_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toContain("no-reply@");
  });

  it("takes SMTP_URL, MAIL_FROM and PUBLIC_URL, and refuses a PUBLIC_URL that is not a URL", () => {
    const env = readEnv({
      SMTP_URL: "smtps://user:secret@mail.example.org:465",
      MAIL_FROM: "Portal <portal@example.org>",
      PUBLIC_URL: "https://portal.example.org",
    });
    expect(env).toMatchObject({
      SMTP_URL: "smtps://user:secret@mail.example.org:465",
      MAIL_FROM: "Portal <portal@example.org>",
      PUBLIC_URL: "https://portal.example.org",
    });
    expect(() => readEnv({ PUBLIC_URL: "portal" })).toThrow(/PUBLIC_URL/);
  });
});
