/**
 * How a site's own study gets its people in the API tests, as the README's first start says:
 * the first administrator from `clinro admin create`, staff invited through the portal's call,
 * each activated from the mail they were sent.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect } from "vitest";
import { runCli } from "../../server/cli/run-cli.ts";
import { createMailer } from "../../server/mail/mailer.ts";
import type { ApiHarness } from "./api-harness.ts";
import { mailsTo, tokenOfLink } from "./mail-drop.ts";
import { userIdOf } from "./submitted-study.ts";

export const NEW_PASSWORD = "Chosen&Strong42";
const PUBLIC_URL = "https://portal.test.example";

export type Person = { id: number; username: string; token: string };

/** Runs a `clinro` command on the harness's database and mail drop; it must succeed. */
export async function cliSucceeds(api: ApiHarness, ...argv: string[]) {
  const lines: string[] = [];
  const mailer = createMailer(
    { from: "Portal <no-reply@test.example>", dropDir: path.join(api.dataDir, "mail") },
    { info: () => {} },
  );
  try {
    const code = await runCli(
      argv,
      { out: (line) => lines.push(line), err: (line) => lines.push(line) },
      { database: api.handle, mail: { mailer, publicUrl: PUBLIC_URL } },
    );
    expect(code, lines.join("\n")).toBe(0);
  } finally {
    mailer.close();
  }
}

/** Sets the password from the last mail to `email` and signs in. */
export async function activate(api: ApiHarness, email: string): Promise<Person> {
  await api.app.backgroundTasks.drain();
  const link = (await mailsTo(api.dataDir, email)).at(-1)?.links[0];
  if (!link) throw new Error(`no mail to ${email}`);
  const activated = await api.request("POST", "/control/users/setup_password", {
    body: {
      token: tokenOfLink(link),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
      platform_type: "clinro",
    },
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return { id: await userIdOf(api, email), username: email, token: await api.signIn(email, NEW_PASSWORD) };
}

/** The first administrator of an empty database, made from the command line and activated. */
export async function firstAdministrator(api: ApiHarness, email: string, name: string): Promise<Person> {
  await cliSucceeds(api, "admin", "create", "--email", email, "--name", name);
  return activate(api, email);
}

/** Invites a user through the portal's call (as the administrator) and activates them from the mail. */
export async function invited(
  api: ApiHarness,
  administrator: Person,
  body: Record<string, unknown>,
): Promise<Person> {
  const email = `${String(body.name).toLowerCase().replace(/\W+/g, ".")}-${randomUUID().slice(0, 8)}@site.example`;
  const response = await api.request("POST", "/control/users/invitations", {
    token: administrator.token,
    body: { email, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return activate(api, email);
}
