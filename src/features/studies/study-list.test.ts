import { describe, expect, it } from "vitest";
import type { SitePermission, StudyPermission } from "../../../core/contracts/user.ts";
import { pathAfterChoosing, selectableStudySites, type SelectableStudySite } from "./study-list.ts";

function site(site_id: number, tree_level: number, is_virtual = false): SitePermission {
  return { site_id, site_label: `Site ${site_id}`, tree_level, is_virtual };
}

function study(overrides: Partial<StudyPermission> = {}): StudyPermission {
  return {
    study_id: 1,
    study_name: "Study One",
    role: "16",
    scope: ["ca"],
    sms_enabled: false,
    consent_2: false,
    sites: [site(10, 4)],
    ...overrides,
  };
}

const siteIds = (items: SelectableStudySite[]) => items.map((item) => item.siteId).sort((a, b) => a - b);

describe("study list rule: the study scope includes ca or cp", () => {
  it.each<[string[], boolean]>([
    [["ca"], true],
    [["cp"], true],
    [["ca", "cp"], true],
    [["xx", "cp", "yy"], true],
    [["rp", "ca"], true],
    [[], false],
    [["wu"], false],
    [["rp", "wu"], false],
    [["cap"], false],
    [["c"], false],
  ])("a study with scope %j is listed: %s", (scope, listed) => {
    const items = selectableStudySites({ 1: study({ scope, sites: [site(10, 4), site(11, 4)] }) });
    expect(siteIds(items)).toEqual(listed ? [10, 11] : []);
  });
});

describe("study list rule: the site is virtual, at tree level 4, or the only site of its study", () => {
  it.each<[string, SitePermission[], number[]]>([
    ["a virtual site among several, at another level", [site(10, 2, true), site(11, 3)], [10]],
    ["a site at tree level 4 among several", [site(10, 4), site(11, 3)], [10]],
    ["a site at tree level 3, not virtual, among several", [site(10, 3), site(11, 5)], []],
    ["a site at tree level 5, not virtual, among several", [site(10, 5), site(11, 2)], []],
    ["the only site of its study at tree level 2", [site(10, 2)], [10]],
    ["the only site of its study at tree level 4", [site(10, 4)], [10]],
    ["the only site of its study, virtual", [site(10, 1, true)], [10]],
    [
      "virtual and tree level 4 sites together, others left out",
      [site(10, 4), site(11, 1, true), site(12, 3)],
      [10, 11],
    ],
    ["a study without sites", [], []],
  ])("%s", (_case, sites, expected) => {
    expect(siteIds(selectableStudySites({ 1: study({ sites }) }))).toEqual(expected);
  });

  it("judges 'the only site' per study, not over all studies", () => {
    const items = selectableStudySites({
      1: study({ study_id: 1, sites: [site(10, 2)] }),
      2: study({ study_id: 2, study_name: "Study Two", sites: [site(20, 2), site(21, 2)] }),
    });
    expect(items.map((item) => [item.studyId, item.siteId])).toEqual([[1, 10]]);
  });

  it("leaves out the sites of a study without ca or cp even when they would qualify", () => {
    const items = selectableStudySites({
      1: study({ study_id: 1, scope: ["ca"], sites: [site(10, 4)] }),
      2: study({ study_id: 2, scope: ["wu"], sites: [site(20, 4), site(21, 1, true)] }),
      3: study({ study_id: 3, scope: ["cp"], sites: [site(30, 2)] }),
    });
    expect(siteIds(items)).toEqual([10, 30]);
  });

  it("lists nothing when the user has no permissions", () => {
    expect(selectableStudySites(undefined)).toEqual([]);
    expect(selectableStudySites({})).toEqual([]);
  });
});

describe("study list items", () => {
  it("carry studyId, studyName, siteId, siteName, smsEnabled and newConsentEnabled", () => {
    const items = selectableStudySites({
      42: study({
        study_id: 42,
        study_name: "Heart Study",
        sms_enabled: true,
        consent_2: true,
        sites: [{ site_id: 7, site_label: "Boston General", tree_level: 4, is_virtual: false }],
      }),
    });
    expect(items).toEqual([
      {
        studyId: 42,
        studyName: "Heart Study",
        siteId: 7,
        siteName: "Boston General",
        smsEnabled: true,
        newConsentEnabled: true,
      },
    ]);
  });

  it.each([
    [false, false],
    [true, false],
    [false, true],
  ])("take smsEnabled %s and newConsentEnabled %s from the study", (sms, consent) => {
    const [item] = selectableStudySites({ 1: study({ sms_enabled: sms, consent_2: consent }) });
    expect(item).toMatchObject({ smsEnabled: sms, newConsentEnabled: consent });
  });
});

describe("pathAfterChoosing", () => {
  const item: SelectableStudySite = {
    studyId: 3,
    studyName: "Study Three",
    siteId: 9,
    siteName: "Site Nine",
    smsEnabled: false,
    newConsentEnabled: false,
  };

  it.each([
    [true, "/studies/3/sites/9/consents"],
    [false, "/studies/3/sites/9/search"],
  ])("with newConsentEnabled %s goes to %s", (newConsentEnabled, path) => {
    expect(pathAfterChoosing({ ...item, newConsentEnabled })).toBe(path);
  });
});
