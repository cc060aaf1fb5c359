import { describe, expect, it } from "vitest";
import type { StudyPermission } from "../../../core/contracts/user.ts";
import { authorStudies, mayWriteAnnouncements } from "./authoring.ts";

const study = (id: number, role: string, sites: [number, string][] = []): StudyPermission => ({
  study_id: id,
  study_name: `Study ${id}`,
  role,
  scope: ["ca"],
  sms_enabled: false,
  consent_2: false,
  sites: sites.map(([siteId, label]) => ({
    site_id: siteId,
    site_label: label,
    tree_level: 4,
    is_virtual: false,
  })),
});

describe("who may write an announcement, and to which studies", () => {
  const permissions = {
    "1": study(1, "16", [
      [12, "Zeta"],
      [11, "Alpha"],
    ]),
    "2": study(2, "11"),
    "3": study(3, "Impartial Witness"),
  };

  it("gives a coordinator the studies where they coordinate, with their sites by name", () => {
    expect(authorStudies(permissions, "researcher")).toEqual([
      {
        studyId: 1,
        studyName: "Study 1",
        sites: [
          { siteId: 11, label: "Alpha" },
          { siteId: 12, label: "Zeta" },
        ],
      },
    ]);
  });

  it("gives an administrator (or the legacy 'edit' role) every study of their permissions", () => {
    expect(authorStudies(permissions, "administrator").map((item) => item.studyId)).toEqual([1, 2, 3]);
    expect(authorStudies(permissions, "edit")).toHaveLength(3);
  });

  it("gives clinical staff and witnesses nothing", () => {
    const staff = { "2": permissions["2"], "3": permissions["3"] };
    expect(mayWriteAnnouncements({ permissions: staff, role: "researcher" })).toBe(false);
    expect(mayWriteAnnouncements({ permissions: undefined, role: "administrator" })).toBe(false);
    expect(mayWriteAnnouncements({ permissions, role: "enroller" })).toBe(true);
  });
});
