import { describe, expect, it } from "vitest";
import {
  EMPTY_PARTICIPANT_FORM,
  fieldOfRefusal,
  participantFieldsOf,
  participantFormProblems,
  participantFormValuesOf,
  type ParticipantFormValues,
} from "./participant-form-model.ts";

const NOW = new Date(2026, 10, 27, 12, 0, 0);
const filled: ParticipantFormValues = {
  subjectId: " GAD-0042 ",
  firstName: " Ada ",
  lastName: "Lovelace",
  dateOfBirth: "1980-02-29",
  gender: "f",
  email: "",
};

describe("the participant form", () => {
  it("needs a subject id, both names and a date of birth", () => {
    expect(participantFormProblems(EMPTY_PARTICIPANT_FORM, NOW)).toEqual({
      subjectId: "required",
      firstName: "required",
      lastName: "required",
      dateOfBirth: "required",
    });
  });

  it("accepts a filled form with no gender and no email", () => {
    expect(participantFormProblems({ ...filled, gender: "none" }, NOW)).toEqual({});
  });

  it.each([
    ["1981-02-29", "date"],
    ["1899-12-31", "date"],
    ["2026-11-28", "future"],
    ["2026-11-27", undefined],
  ])("judges the date of birth %s as %s", (dateOfBirth, problem) => {
    expect(participantFormProblems({ ...filled, dateOfBirth }, NOW).dateOfBirth).toBe(problem);
  });

  it("refuses blank names, names too long and an email that is not one", () => {
    const problems = participantFormProblems(
      { ...filled, firstName: "   ", lastName: "x".repeat(101), email: "ada@" },
      NOW,
    );
    expect(problems).toEqual({ firstName: "required", lastName: "too-long", email: "email" });
  });

  it("sends trimmed fields, null for no gender and no email", () => {
    expect(participantFieldsOf({ ...filled, gender: "none" })).toEqual({
      subject_id: "GAD-0042",
      fname: "Ada",
      lname: "Lovelace",
      date_of_birth: "1980-02-29",
      gender: null,
      email: null,
    });
  });

  it("fills the form from a participant and back to the same fields", () => {
    const fields = participantFieldsOf(filled);
    expect(participantFieldsOf(participantFormValuesOf(fields))).toEqual(fields);
  });

  it("names the field a refusal is about", () => {
    expect(fieldOfRefusal({ code: "subject_id_taken", message: "taken" })).toBe("subjectId");
    expect(fieldOfRefusal({ issues: [{ path: "date_of_birth", message: "future" }] })).toBe("dateOfBirth");
    expect(fieldOfRefusal({ code: "site_retired" })).toBeUndefined();
  });
});
