import { describe, expect, it } from "vitest";
import { listOrderAfterHeaderPress, parseSortChoice, sortChoiceOf } from "./list-sort.ts";

describe("the participant list's order", () => {
  it("turns the sorted column's order around at a press on its header", () => {
    expect(listOrderAfterHeaderPress("last_name", "last_name", "asc")).toEqual({
      sort: "last_name",
      order: "desc",
    });
    expect(listOrderAfterHeaderPress("enrolled", "enrolled", "desc")).toEqual({
      sort: "enrolled",
      order: "asc",
    });
  });

  it("sorts another column from A, and enrolment from the newest", () => {
    expect(listOrderAfterHeaderPress("subject_id", "last_name", "desc")).toEqual({
      sort: "subject_id",
      order: "asc",
    });
    expect(listOrderAfterHeaderPress("enrolled", "last_name", "asc")).toEqual({
      sort: "enrolled",
      order: "desc",
    });
  });

  it("reads back the phone's sort choices and refuses others", () => {
    expect(parseSortChoice(sortChoiceOf("subject_id", "desc"))).toEqual({
      sort: "subject_id",
      order: "desc",
    });
    expect(parseSortChoice("age:asc")).toBeUndefined();
    expect(parseSortChoice("last_name:up")).toBeUndefined();
    expect(parseSortChoice("last_name")).toBeUndefined();
  });
});
