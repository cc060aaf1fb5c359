import { describe, expect, it } from "vitest";
import type { MeResponse } from "../../core/contracts/user.ts";
import { lacksSite } from "./site-access.ts";

const boston = { site_id: 1011, site_label: "Boston", tree_level: 4, is_virtual: false };
const permissions: MeResponse["permissions"] = {
  "101": {
    study_id: 101,
    study_name: "MDD-301",
    role: "11",
    scope: ["ca", "cp"],
    sms_enabled: false,
    consent_2: true,
    sites: [boston],
  },
};

describe("lacksSite", () => {
  it("is false for a site of a study the user works at", () => {
    expect(lacksSite(permissions, 101, 1011)).toBe(false);
  });

  it("is true for another site of that study, and for a study the user has no permission in", () => {
    expect(lacksSite(permissions, 101, 1012)).toBe(true);
    expect(lacksSite(permissions, 102, 1021)).toBe(true);
  });

  it("decides nothing without stored permissions (the server answers)", () => {
    expect(lacksSite(undefined, 101, 1012)).toBe(false);
  });
});
