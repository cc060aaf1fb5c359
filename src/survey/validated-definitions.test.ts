import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { everyTypeDefinitionJson } from "../../core/survey-engine/test-fixtures.ts";
import type * as Validator from "../../core/survey-engine/validate-definition.ts";

// The build defines the app version; vitest's projects do not.
vi.stubGlobal("__APP_VERSION__", "test");

// The validator, counted: the point of the store is to call it less.
const validator = vi.hoisted(() => ({ calls: 0 }));
vi.mock("../../core/survey-engine/validate-definition.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof Validator>();
  return {
    ...actual,
    parseSurveyDefinition: (json: unknown) => {
      validator.calls++;
      return actual.parseSurveyDefinition(json);
    },
  };
});

const { parseDefinitionBody } = await import("../api/survey-definition-api.ts");
const { validatedDefinitionKey } = await import("./validated-definitions.ts");

/** A body no other test used (the store outlives each test), as the definition call reads it. */
function freshBody(title: string, change: Record<string, unknown> = {}) {
  return JSON.stringify({
    ...structuredClone(everyTypeDefinitionJson),
    title,
    display_name: title,
    permissions: ["SC"],
    ...change,
  });
}

/** The store is written after the answer: wait for it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(() => {
  validator.calls = 0;
});

describe("a definition is validated once on this device", () => {
  it("does not validate a body it validated before, and answers the same definition", async () => {
    const body = freshBody("once");
    const first = await parseDefinitionBody(body);
    await settle();
    const second = await parseDefinitionBody(body);
    expect(validator.calls).toBe(1);
    expect(second).toEqual(first);
    // Defaults filled in by the validator come back with the stored copy.
    expect(second.definition.siblings).toEqual(first.definition.siblings);
    expect(second.permissions).toEqual(["SC"]);
  });

  it("validates a changed body again", async () => {
    await parseDefinitionBody(freshBody("before"));
    await settle();
    await parseDefinitionBody(freshBody("after"));
    expect(validator.calls).toBe(2);
  });

  it("never remembers a definition that did not validate", async () => {
    const invalid = freshBody("invalid", { order: ["no-such-question"] });
    await expect(parseDefinitionBody(invalid)).rejects.toThrow(/no-such-question/);
    await settle();
    await expect(parseDefinitionBody(invalid)).rejects.toThrow(/no-such-question/);
    expect(validator.calls).toBe(2);
  });

  it("keys a zip by its bytes and a JSON body by its text, under the app version", async () => {
    const zip = new Blob([new Uint8Array([80, 75, 3, 4])]);
    const zipKey = await validatedDefinitionKey(zip, "3.75.1");
    expect(zipKey).toMatch(/^3\.75\.1:[0-9a-f]{64}$/);
    expect(await validatedDefinitionKey(new Blob([new Uint8Array([80, 75, 3, 4])]), "3.75.1")).toBe(zipKey);
    expect(await validatedDefinitionKey(zip, "3.76.0")).not.toBe(zipKey);
    expect(await validatedDefinitionKey('{"a":1}', "3.75.1")).not.toBe(
      await validatedDefinitionKey('{"a":2}', "3.75.1"),
    );
  });
});

describe("a definition the server checked for this app version", () => {
  it("is taken as checked, without the server's mark", async () => {
    const body = freshBody("checked by the server", { validated_for_app: "test" });
    const loaded = await parseDefinitionBody(body);
    expect(validator.calls).toBe(0);
    expect(loaded.displayName).toBe("checked by the server");
    expect(loaded.permissions).toEqual(["SC"]);
    expect(loaded.definition).not.toHaveProperty("validated_for_app");
    expect(loaded.definition.order).toEqual(everyTypeDefinitionJson.order);
  });

  it("is validated here when another app version checked it, and its problems named", async () => {
    await parseDefinitionBody(freshBody("checked by another version", { validated_for_app: "3.0.0" }));
    expect(validator.calls).toBe(1);
    const invalid = freshBody("another version, invalid", {
      validated_for_app: "3.0.0",
      order: ["no-such-question"],
    });
    await expect(parseDefinitionBody(invalid)).rejects.toThrow(/no-such-question/);
  });
});
