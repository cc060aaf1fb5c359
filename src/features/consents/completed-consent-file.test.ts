import { describe, expect, it } from "vitest";
import { completedConsentFileName } from "./completed-consent-file.ts";

describe("completedConsentFileName", () => {
  it.each([
    [
      { title: "Main Study Informed Consent", version: 2, subjectId: "MDD-1001" },
      "Main-Study-Informed-Consent-v2-MDD-1001.pdf",
    ],
    [
      { title: "Consentimiento genético (opción)", version: 1, subjectId: "S 07" },
      "Consentimiento-genetico-opcion-v1-S-07.pdf",
    ],
    [{ title: "../../etc/passwd", version: 3, subjectId: "a/b\\c" }, "etc-passwd-v3-a-b-c.pdf"],
    [{ title: "同意書", version: 1, subjectId: "" }, "consent-v1-participant.pdf"],
  ])("%j is saved as %s", (input, fileName) => {
    expect(completedConsentFileName(input)).toBe(fileName);
  });
});
