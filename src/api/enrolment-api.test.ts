import { describe, expect, it } from "vitest";
import { enrolmentWrite, mayEnrolAt } from "./enrolment-api.ts";

const site = (site_id: number) => ({
  site_id,
  site_label: `Site ${site_id}`,
  tree_level: 1,
  is_virtual: false,
});
const study = (role: string) => ({
  study_id: 1,
  study_name: "GAD-118",
  role,
  scope: [],
  sms_enabled: false,
  consent_2: true,
  sites: [site(2)],
});

describe("who may add participants at a site", () => {
  it.each([
    ["an enroller", "enroller", "11", true],
    ["a study manager", "studyManager", "12", true],
    ["an administrator", "administrator", "13", true],
    ["a coordinator (16)", "researcher", "16", true],
    ["a researcher who is not a coordinator", "researcher", "11", false],
  ])("%s: %s", (_who, role, studyRole, allowed) => {
    const user = { role: role as "enroller", permissions: { "1": study(studyRole) } };
    expect(mayEnrolAt(user, 1, 2)).toBe(allowed);
  });

  it("only at a site of a study they work in", () => {
    const user = { role: "administrator" as const, permissions: { "1": study("16") } };
    expect(mayEnrolAt(user, 1, 3)).toBe(false);
    expect(mayEnrolAt(user, 2, 2)).toBe(false);
    expect(mayEnrolAt(null, 1, 2)).toBe(false);
  });
});

describe("the enrolment as an outbox write", () => {
  it("posts the fields and the client id to the site's participants", () => {
    const write = enrolmentWrite(
      1,
      2,
      { subject_id: "S", fname: "A", lname: "B", date_of_birth: "1990-01-01", gender: "o", email: null },
      "0b0f6c9e-8f5e-4d52-9a43-4a1c2f2d7e11",
    );
    expect(write).toMatchObject({
      kind: "enrolment",
      request: {
        method: "POST",
        path: "/control/studies/1/sites/2/participants",
        body: { type: "json", value: { subject_id: "S", client_id: "0b0f6c9e-8f5e-4d52-9a43-4a1c2f2d7e11" } },
      },
    });
  });
});
