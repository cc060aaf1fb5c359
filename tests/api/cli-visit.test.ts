import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { runCli } from "../../server/cli/run-cli.ts";
import { participants, visits } from "../../server/db/schema.ts";
import { hashJoinSecret } from "../../server/visits/join-links.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";
import { mailsTo } from "../support/mail-drop.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    output: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) },
    out,
    err,
  };
}

describeOnEachDatabase("npm run clinro -- visit schedule", (api) => {
  const run = (args: string[]) => {
    const captured = capture();
    return runCli(args, captured.output, { database: api.handle, mail: api.app.accountMail }).then(
      (code) => ({
        code,
        ...captured,
      }),
    );
  };
  const participantOf = async (siteId: number) => {
    const [row] = await api.db
      .select({ id: participants.id, email: participants.email })
      .from(participants)
      .where(and(eq(participants.studyId, 102), eq(participants.siteId, siteId)))
      .orderBy(participants.id)
      .limit(1);
    return row!;
  };

  it("schedules a visit, mails the participant the join link, and prints both", async () => {
    const participant = await participantOf(1021);
    await api.db
      .update(participants)
      .set({ email: "cli.visit@participant.example" })
      .where(eq(participants.id, participant.id));
    const at = new Date(Date.now() + 60 * 60_000).toISOString();
    const { code, out, err } = await run([
      "visit",
      "schedule",
      "--study",
      "102",
      "--site",
      "1021",
      "--participant",
      String(participant.id),
      "--at",
      at,
      "--minutes",
      "45",
      "--recorded",
    ]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[0]).toMatch(
      /^Scheduled visit \d+ \(room visit-[A-Za-z0-9_-]+\) for .+, 45 minutes, recorded\.$/,
    );
    const visitId = Number(/visit (\d+)/.exec(out[0]!)![1]);
    const [stored] = await api.db.select().from(visits).where(eq(visits.id, visitId));
    expect(stored).toMatchObject({
      studyId: 102,
      siteId: 1021,
      participantId: participant.id,
      visitDuration: 45,
      isRecorded: true,
      isAdhoc: false,
      createdBy: null,
    });
    expect(stored!.visitTime.toISOString()).toBe(at);
    const [mail] = await mailsTo(api.dataDir, "cli.visit@participant.example");
    const link = mail!.links.find((candidate) => candidate.includes("/join/"))!;
    expect(out[1]).toBe(`Join link mailed to cli.visit@participant.example: ${link}`);
    expect(stored!.joinSecretHash).toBe(hashJoinSecret(new URL(link).pathname.split("/").at(-1)!));
  });

  it("refuses a participant of another site and bad arguments; nothing is stored", async () => {
    const count = async () => (await api.db.select({ id: visits.id }).from(visits)).length;
    const before = await count();
    const elsewhere = await participantOf(1022);
    const base = ["visit", "schedule", "--study", "102", "--site", "1021", "--minutes", "30"];
    const at = ["--at", new Date(Date.now() + 60_000).toISOString()];
    const refused = await run([...base, ...at, "--participant", String(elsewhere.id)]);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(
      /is not a participant of study 102 at site 1021; nothing was scheduled\.$/,
    );
    for (const args of [
      [...base, "--participant", String(elsewhere.id)],
      [...base, "--participant", "x", ...at],
      [...base, "--participant", "1", "--at", "2026-12-01 10:00"],
      [
        "visit",
        "schedule",
        "--study",
        "102",
        "--site",
        "1021",
        "--participant",
        "1",
        ...at,
        "--minutes",
        "0",
      ],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.err.at(-1)).toContain("visit schedule --study ID");
    }
    expect(await count()).toBe(before);
  });
});
