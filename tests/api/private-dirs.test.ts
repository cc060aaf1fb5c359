/**
 * Every folder the server writes is readable by the server's user alone (0700): the embedded
 * database's data directory, DATA_DIR itself (the generated signing secret), the mail drop; the
 * database's lock file is 0600. A folder made with mkdir's default would be 0755 under the usual
 * umask (022), so each check here fails without the explicit mode.
 */
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSigningSecret } from "../../server/auth/tokens.ts";
import { openDatabase } from "../../server/db/client.ts";
import { createMailer } from "../../server/mail/mailer.ts";
import { makePrivateDir } from "../../server/private-dir.ts";

const modeOf = async (target: string) => (await stat(target)).mode & 0o777;

describe("folders the server writes are private (0700)", () => {
  let root = "";
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "clinro-private-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("the usual umask would leave a plain folder readable by others (the checks below can fail)", async () => {
    const plain = path.join(root, "plain");
    await mkdir(plain);
    expect(await modeOf(plain)).not.toBe(0o700);
  });

  it("the PGlite data directory (and the DATA_DIR it is made in) is 0700, its lock file 0600", async () => {
    const dataDir = path.join(root, "data-a");
    const pgliteDir = path.join(dataDir, "pglite");
    const handle = await openDatabase({ kind: "pglite", dataDir: pgliteDir });
    try {
      expect(await modeOf(pgliteDir)).toBe(0o700);
      expect(await modeOf(dataDir)).toBe(0o700);
      expect(await modeOf(`${pgliteDir}.lock`)).toBe(0o600);
    } finally {
      await handle.close();
    }
  });

  it("an existing data directory readable by others is narrowed to 0700 when the database opens", async () => {
    const pgliteDir = path.join(root, "data-b", "pglite");
    await mkdir(pgliteDir, { recursive: true, mode: 0o755 });
    expect(await modeOf(pgliteDir)).toBe(0o755);
    const handle = await openDatabase({ kind: "pglite", dataDir: pgliteDir });
    try {
      expect(await modeOf(pgliteDir)).toBe(0o700);
    } finally {
      await handle.close();
    }
  });

  it("DATA_DIR made for the generated signing secret is 0700 (the secret 0600)", async () => {
    const dataDir = path.join(root, "data-c");
    await loadSigningSecret(undefined, dataDir);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(path.join(dataDir, "jwt-secret"))).toBe(0o600);
  });

  it("the mail drop folder is 0700", async () => {
    const dropDir = path.join(root, "data-d", "mail");
    const mailer = createMailer({ from: "test <t@example.test>", dropDir }, { info: () => {} });
    try {
      await mailer.send({ to: "someone@example.test", subject: "Hello", text: "Hi", html: "<p>Hi</p>" });
    } finally {
      mailer.close();
    }
    expect(await modeOf(dropDir)).toBe(0o700);
    expect(await modeOf(path.dirname(dropDir))).toBe(0o700);
  });

  it("makePrivateDir narrows an existing folder", async () => {
    const dir = path.join(root, "wide");
    await mkdir(dir, { mode: 0o777 });
    await makePrivateDir(dir);
    expect(await modeOf(dir)).toBe(0o700);
  });
});
