/**
 * Two paths are written out rather than built from their declarations, to keep what loads first
 * small: the signing key (fetched at sign-in) and the definition download (bundled into the early
 * script index.html starts). These tests keep each equal to its declaration.
 */
import { describe, expect, it, vi } from "vitest";
import { signingKeyCall } from "../../core/contracts/calls/consent-calls.ts";
import { getAdminDefinitionCall } from "../../core/contracts/calls/instrument-calls.ts";
import { callPath } from "../../core/contracts/http/define-call.ts";
import { definitionPath } from "./survey-definition-url.ts";

const request = vi.hoisted(() => vi.fn(() => Promise.resolve({})));
vi.mock("./request.ts", () => ({ request }));

describe("paths written out by hand", () => {
  it("fetches the signing key from signingKeyCall's path with its method", async () => {
    const { fetchSigningKey } = await import("./signing-key-api.ts");
    await fetchSigningKey();
    expect(signingKeyCall.method).toBe("GET");
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ path: signingKeyCall.path }));
  });

  it.each([
    { studyId: 1001, instrumentId: 7, instrument: "ham-d-17" },
    { studyId: 2, instrumentId: 2147483647, instrument: "a b/c?d" },
  ])("downloads definition $instrument from getAdminDefinitionCall's path", (address) => {
    expect(definitionPath({ ...address, searchStr: "" })).toBe(callPath(getAdminDefinitionCall, address));
  });
});
