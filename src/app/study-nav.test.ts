import { describe, expect, it } from "vitest";
import { backLinks, parseStudyPath, studyTabs, type StudyPath, type TabFacts } from "./study-nav.ts";

const path = (rest = "/search") => parseStudyPath(`/studies/101/sites/1011${rest}`) as StudyPath;
const facts = (overrides: Partial<TabFacts> = {}): TabFacts => ({
  role: "16",
  newConsentEnabled: true,
  virtualVisits: true,
  missingConsents: undefined,
  ...overrides,
});
const keys = (overrides: Partial<TabFacts>) => studyTabs(path(), facts(overrides)).map((tab) => tab.key);

describe("parseStudyPath", () => {
  it.each<[string, object | null]>([
    [
      "/studies/101/sites/1011/search",
      { studyId: 101, siteId: 1011, base: "/studies/101/sites/1011", rest: "/search" },
    ],
    ["/studies/101/sites/1011", { studyId: 101, siteId: 1011, rest: "" }],
    ["/studies/101/sites/1011/participants/5", { rest: "/participants/5" }],
    ["/studies", null],
    ["/studies/abc/sites/1/search", null],
    ["/users/profile", null],
  ])("%s", (pathname, expected) => {
    const parsed = parseStudyPath(pathname);
    if (expected === null) expect(parsed).toBeNull();
    else expect(parsed).toMatchObject(expected);
  });
});

describe("tab visibility", () => {
  it.each<[string, Partial<TabFacts>, string[]]>([
    [
      "a coordinator in a study with new consents and virtual visits",
      {},
      ["participants", "consents", "visits"],
    ],
    ["clinical staff level 1", { role: "11" }, ["participants", "consents", "visits"]],
    ["a witness: no Participants, no Virtual visits", { role: "Impartial Witness" }, ["consents"]],
    ["a witness, role written in lower case", { role: "impartial witness" }, ["consents"]],
    [
      "a witness in a study without new consents",
      { role: "Impartial Witness", newConsentEnabled: false },
      [],
    ],
    ["without newConsentEnabled: no Consents", { newConsentEnabled: false }, ["participants", "visits"]],
    ["without virtual_visits: no Virtual visits", { virtualVisits: false }, ["participants", "consents"]],
    ["neither", { newConsentEnabled: false, virtualVisits: false }, ["participants"]],
    [
      "a role not known yet still sees Participants",
      { role: undefined },
      ["participants", "consents", "visits"],
    ],
  ])("%s", (_case, overrides, expected) => {
    expect(keys(overrides)).toEqual(expected);
  });

  it.each<[number | undefined, boolean]>([
    [undefined, false],
    [0, false],
    [1, true],
    [12, true],
  ])("with %s missing consents the Consents tab has a dot: %s", (missingConsents, dot) => {
    const consents = studyTabs(path(), facts({ missingConsents })).find((tab) => tab.key === "consents");
    expect(consents?.dot).toBe(dot);
  });

  it("links the tabs to search, consents and visits of the study and site", () => {
    expect(studyTabs(path(), facts()).map((tab) => tab.to)).toEqual([
      "/studies/101/sites/1011/search",
      "/studies/101/sites/1011/consents",
      "/studies/101/sites/1011/visits",
    ]);
  });

  it.each<[string, string | null]>([
    ["/search", "participants"],
    ["/participants/12", "participants"],
    ["/participants/12/instruments/3/ham-d-17", "participants"],
    ["/consents", "consents"],
    ["/consents/4", "consents"],
    ["/visits", "visits"],
    ["/visits/room-token", "visits"],
    ["", null],
    ["/searching", null],
  ])("on %s the current tab is %s", (rest, current) => {
    const tab = studyTabs(path(rest), facts()).find((candidate) => candidate.current);
    expect(tab?.key ?? null).toBe(current);
  });
});

describe("back links", () => {
  it.each<[string, string[]]>([
    ["/search", ["studies"]],
    ["/participants/12", ["studies", "search"]],
    ["/participants/12/instruments/3/ham-d-17", ["studies", "search"]],
    // The site's pending instruments belong with the participants.
    ["/pending", ["studies", "search"]],
    ["/visits", ["studies"]],
    ["/visits/room-token", ["studies", "visits"]],
    ["/consents", ["studies"]],
    ["/consents/4", ["studies", "consents"]],
  ])("on %s: %j", (rest, expected) => {
    expect(backLinks(path(rest)).map((link) => link.key)).toEqual(expected);
  });

  it("points search participant at the study and site's search", () => {
    expect(backLinks(path("/participants/12"))[1]).toEqual({
      key: "search",
      to: "/studies/101/sites/1011/search",
    });
  });
});
