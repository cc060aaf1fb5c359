import { describe, expect, it } from "vitest";
import {
  NO_ACCESS,
  choicesOf,
  chooseRole,
  fieldOfIssue,
  hasProblems,
  staffFormProblems,
  studiesRequest,
  toggleSite,
} from "./staff-form.ts";

describe("the staff forms' rules", () => {
  it("ticks the only site of a study when a role is chosen, and clears the sites with No access", () => {
    expect(chooseRole(NO_ACCESS, "16", [1031])).toEqual({ role: "16", siteIds: [1031], mayExport: false });
    expect(chooseRole(NO_ACCESS, "16", [1011, 1012])).toEqual({ role: "16", siteIds: [], mayExport: false });
    expect(chooseRole({ role: "16", siteIds: [1011], mayExport: false }, "", [1011, 1012])).toEqual(
      NO_ACCESS,
    );
    expect(chooseRole({ role: "16", siteIds: [1012], mayExport: true }, "11", [1011, 1012])).toEqual({
      role: "11",
      siteIds: [1012],
      mayExport: true,
    });
  });

  it("toggles sites in order, once each", () => {
    const choice = toggleSite(
      toggleSite({ role: "11", siteIds: [], mayExport: false }, 1012, true),
      1011,
      true,
    );
    expect(choice.siteIds).toEqual([1011, 1012]);
    expect(toggleSite(choice, 1012, false).siteIds).toEqual([1011]);
    expect(toggleSite(choice, 1011, true).siteIds).toEqual([1011, 1012]);
  });

  it("sends only the studies given a role, in study order", () => {
    expect(
      studiesRequest({
        103: { role: "Impartial Witness", siteIds: [1031], mayExport: false },
        102: NO_ACCESS,
        101: { role: "16", siteIds: [1011], mayExport: true },
      }),
    ).toEqual([
      { study_id: 101, role: "16", site_ids: [1011], may_export: true },
      { study_id: 103, role: "Impartial Witness", site_ids: [1031], may_export: false },
    ]);
  });

  it("names a blank name, an email that is not one, and a role without a site", () => {
    const problems = staffFormProblems({
      name: " ",
      email: "carla@",
      studies: { 101: { role: "16", siteIds: [], mayExport: false } },
    });
    expect(problems).toEqual({
      name: "name_missing",
      email: "email_invalid",
      studies: { 101: "sites_missing" },
    });
    expect(hasProblems(problems)).toBe(true);
    const fine = staffFormProblems({
      name: "Carla",
      email: " carla@site.example ",
      studies: { 101: { role: "16", siteIds: [1011], mayExport: false } },
    });
    expect(hasProblems(fine)).toBe(false);
    expect(hasProblems(staffFormProblems({ studies: {} }))).toBe(false);
  });

  it("reads a member's access back as choices, leaving unknown roles out", () => {
    expect(
      choicesOf({
        studies: [
          {
            study_id: 101,
            study_name: "MDD-301",
            role: "12",
            sites: [{ site_id: 1011, site_label: "Boston" }],
            may_export: true,
          },
          { study_id: 102, study_name: "SCZ-214", role: "legacy", sites: [], may_export: false },
        ],
      }),
    ).toEqual({
      101: { role: "12", siteIds: [1011], mayExport: true },
      102: { role: "", siteIds: [], mayExport: false },
    });
  });

  it.each([
    ["email", "email"],
    ["studies.0.site_ids.1", "studies"],
    ["management_role", "management_role"],
    ["csv", null],
  ])("puts the issue %s on the field %s", (path, field) => {
    expect(fieldOfIssue(path)).toBe(field);
  });
});
