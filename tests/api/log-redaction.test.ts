import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { participants } from "../../server/db/schema.ts";
import { redactUrl } from "../../server/http/log-redaction.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { mailsTo, tokenOfLink } from "../support/mail-drop.ts";

const workDir = mkdtempSync(path.join(tmpdir(), "clinro-log-"));
const staticDir = path.join(workDir, "dist");
mkdirSync(staticDir, { recursive: true });
writeFileSync(path.join(staticDir, "index.html"), "<!doctype html><title>shell</title>");
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Every line the server logs, as written (pino's JSON lines). */
const logLines: string[] = [];
const logStream = { write: (line: string) => void logLines.push(line) };
const logText = () => logLines.join("");

describeOnEachDatabase(
  "the log keeps emailed links' tokens and search terms out",
  (api) => {
    beforeEach(() => {
      logLines.length = 0;
    });

    it("a password reset: neither the mail's log line nor the link's requests show the token", async () => {
      const user = await api.createUser();
      await api.request("POST", "/control/users/forgot_password", {
        body: { username: user.username, platform: "clinro" },
      });
      await api.app.backgroundTasks.drain();
      const [mail] = await mailsTo(api.dataDir, user.username);
      const link = mail!.links[0]!;
      const token = tokenOfLink(link);
      expect(token.length).toBeGreaterThan(30);
      // The person opens the link (the app shell), which checks the token and sets the password.
      const page = await api.request("GET", new URL(link).pathname + new URL(link).search);
      expect(page.statusCode).toBe(200);
      expect((await api.request("POST", "/control/users/verify_token", { body: { token } })).statusCode).toBe(
        200,
      );
      const setup = await api.request("POST", "/control/users/setup_password", {
        body: {
          password: "Chosen&Strong42",
          password_confirmation: "Chosen&Strong42",
          token,
          platform_type: "clinro",
        },
      });
      expect(setup.statusCode).toBe(200);

      const text = logText();
      // The requests and the mail were logged: the test reads a real log.
      expect(text).toContain("/users/reset?token=[redacted]");
      expect(text).toContain(mail!.file);
      expect(text).not.toContain(token);
      expect(text).not.toContain("Chosen&Strong42");
    });

    it("a participant search: the name searched for is not in the log, on the page or the API call", async () => {
      const [someone] = await api.db
        .select({ lname: participants.lname })
        .from(participants)
        .where(and(eq(participants.studyId, 101), eq(participants.siteId, 1011)))
        .limit(1);
      const name = someone!.lname;
      const token = await api.signIn("staff1@demo.test");
      const page = await api.request("GET", `/studies/101/sites/1011/search?q=${encodeURIComponent(name)}`);
      expect(page.statusCode).toBe(200);
      const search = await api.request(
        "GET",
        `/control/studies/101/sites/1011/clinro_search?search_value=${encodeURIComponent(name)}`,
        { token },
      );
      expect(search.statusCode).toBe(200);
      expect(JSON.stringify(search.json())).toContain(name);

      const text = logText();
      expect(text).toContain("/control/studies/101/sites/1011/clinro_search?search_value=[redacted]");
      expect(text).toContain("/studies/101/sites/1011/search?q=[redacted]");
      expect(text).not.toContain(name);
      expect(text).not.toContain(token);
    });
  },
  { staticDir, appOptions: { logLevel: "info", logStream } },
);

describe("redactUrl", () => {
  it("keeps the path and the parameter names, and replaces every value", () => {
    expect(redactUrl("/users/activate?token=abc.def")).toBe("/users/activate?token=[redacted]");
    expect(redactUrl("/a?q=Jane%20Doe&page=2")).toBe("/a?q=[redacted]&page=[redacted]");
    expect(redactUrl("/a?flag")).toBe("/a?flag=[redacted]");
    expect(redactUrl("/a?")).toBe("/a?");
    expect(redactUrl("/healthz")).toBe("/healthz");
  });

  it("does not keep a 'name' that is itself data", () => {
    expect(redactUrl("/a?jane.doe%40mail.example")).toBe("/a?[redacted]");
  });

  it("replaces a visit's join secret in the path", () => {
    expect(redactUrl("/control/visits/join/s3cr3t?x=1")).toBe("/control/visits/join/[secret]?x=[redacted]");
    expect(redactUrl("/join/s3cr3t")).toBe("/join/[secret]");
  });
});
