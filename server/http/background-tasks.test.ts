import { describe, expect, it } from "vitest";
import { createBackgroundTasks } from "./background-tasks.ts";

describe("background tasks", () => {
  it("logs a failed task's error class and code, never its message (it may hold an address or SQL)", async () => {
    const lines: { details: object; message: string }[] = [];
    const tasks = createBackgroundTasks({ error: (details, message) => lines.push({ details, message }) });
    const failure = Object.assign(new Error("Failed query: insert ... params: ana@example.test"), {
      code: "ECONNREFUSED",
    });
    tasks.run("activation mail", () => Promise.reject(failure));
    await tasks.drain();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toBe("Background task activation mail failed");
    expect(lines[0]!.details).toMatchObject({
      task: "activation mail",
      failure: { type: "Error", code: "ECONNREFUSED" },
    });
    expect(JSON.stringify(lines[0]!.details)).not.toContain("ana@example.test");
  });
});
