import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import {
  formatSignedAt,
  formatTimeWithOffset,
  formatUtc,
  renderConsentPdf,
  type ConsentPdfInput,
} from "../../server/pdf/consent-pdf.ts";
import { completedSample, SAMPLE_HASH } from "../support/consent-pdf-samples.ts";

/** The text of each page, as a PDF reader extracts it (spacing normalised). */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, " "));
}

const SHORT_HASH = SAMPLE_HASH.slice(0, 12);

describe("the consent PDF", () => {
  it("completed: every answer, each signature's names, meaning, times with zone and verification, in Unicode", async () => {
    const pdf = await renderConsentPdf(completedSample());
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pages = await pagesOf(pdf);
    const all = pages.join(" ");
    expect(all).toContain("Consentimiento informado principal — MDD-301");
    expect(all).toContain("José Ñúñez Peña (subject ID MDD-301-0042)");
    expect(all).toContain("Tómese el tiempo necesario para leer la siguiente información");
    expect(all).toContain("¿Acepta que sus muestras se conserven para investigaciones futuras (opcional)?");
    expect(all).toContain("Answer: Sí, he leído y comprendido la información");
    expect(all).toContain("Answer: No, prefiero que no se conserven");

    for (const [name, meaning, role] of [
      ["José Ñúñez Peña", "Participant consent", "Participant"],
      ["Dra. Inés Álvarez", "Consent obtained by", "Clinician obtaining consent"],
      ["Tomás Güell", "Witnessed by", "Impartial witness"],
    ]) {
      expect(all).toContain(`Printed name: ${name}`);
      expect(all).toContain(`Meaning: ${meaning}`);
      expect(all).toContain(`Role: ${role}`);
    }
    // The signer's own clock and zone, and the server's time in UTC.
    expect(all).toContain("Signed (device time): 22-Nov-2026 09:30:12 UTC+01:00 (Europe/Madrid)");
    expect(all).toContain("Signed (device time): 22-Nov-2026 03:45:00 UTC-05:00 (America/New_York)");
    expect(all).toContain("Received by the server: 22-Nov-2026 08:30:15 UTC");
    expect(all).toContain("Received by the server: 22-Nov-2026 08:45:01 UTC");
    // Typed signatures print the typed name; the drawn one is an embedded image.
    expect(all).toContain("Inés Álvarez (typed signature)");
    expect(pdf.toString("latin1")).toMatch(/\/Subtype \/Image/);
    expect(all.match(/Verification: verifies against the signed record/g)).toHaveLength(3);
    expect(all).toContain("All 3 signatures verify against the signed record.");
    expect(all).toContain(`Record hash: ${SAMPLE_HASH}`);
    // The font is embedded (a subset of DejaVu Sans), not one of the 14 standard fonts.
    expect(pdf.toString("latin1")).toMatch(/\/FontFile2/);
    expect(pdf.toString("latin1")).toMatch(/DejaVuSans/);
  });

  it("puts the footer on every page: title, version, participant, page i of n and the short hash", async () => {
    const long = completedSample({
      questions: Array.from({ length: 40 }, (_, index) => ({
        label: `Pregunta ${index + 1}: ¿está de acuerdo con la cláusula número ${index + 1} del consentimiento?`,
        type: "select_one",
        answerText: index % 2 === 0 ? "Sí" : "No",
      })),
    });
    const pages = await pagesOf(await renderConsentPdf(long));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, index) => {
      expect(page).toContain(
        "Consentimiento informado principal — MDD-301 · Version 2 · José Ñúñez Peña (MDD-301-0042)",
      );
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      expect(page).toContain(`Record ${SHORT_HASH}`);
    });
    expect(pages.join(" ")).toContain(
      "Pregunta 40: ¿está de acuerdo con la cláusula número 40 del consentimiento? Answer: No",
    );
  });

  it("says so when a question was not answered", async () => {
    const sample = completedSample();
    const pdf = await renderConsentPdf({
      ...sample,
      questions: [
        { label: "Texto informativo", type: "prompt" },
        { label: "¿Desea recibir los resultados?", type: "select_one" },
      ],
    });
    const all = (await pagesOf(pdf)).join(" ");
    expect(all).toContain("¿Desea recibir los resultados? Answer: (not answered)");
    expect(all).not.toContain("Texto informativo Answer");
  });

  it("says which signatures do not verify", async () => {
    const sample = completedSample();
    const [first, second, third] = sample.signatures;
    const pdf = await renderConsentPdf({
      ...sample,
      signatures: [first!, { ...second!, verified: false }, third!],
      allSignaturesVerified: false,
    });
    const all = (await pagesOf(pdf)).join(" ");
    expect(all).toContain("Verification: DOES NOT VERIFY against the signed record");
    expect(all).toContain("1 of 3 signatures do not verify: Dra. Inés Álvarez (Consent obtained by).");
    expect(all).not.toContain("All 3 signatures verify");
  });

  it("notes a signature image it cannot read instead of failing", async () => {
    const sample = completedSample();
    const pdf = await renderConsentPdf({
      ...sample,
      signatures: [{ ...sample.signatures[0]!, image: new Uint8Array([1, 2, 3, 4]) }],
    });
    const all = (await pagesOf(pdf)).join(" ");
    expect(all).toContain("[The signature image could not be read.]");
    expect(all).toContain("Printed name: José Ñúñez Peña");
  });

  const blankOf = (kind: ConsentPdfInput["kind"]): ConsentPdfInput => ({
    ...completedSample(),
    kind,
    participant: undefined,
    signatures: [],
    recordHash: undefined,
    allSignaturesVerified: undefined,
  });

  it("blank: the consent text only, no answers or signatures", async () => {
    const pages = await pagesOf(await renderConsentPdf(blankOf("blank")));
    const all = pages.join(" ");
    expect(all).toContain("Consent text");
    expect(all).toContain("Usted ha sido invitado a participar en un estudio de investigación");
    expect(all).toContain(
      "¿Ha leído y comprendido la información sobre el estudio, y ha podido hacer preguntas?",
    );
    expect(all).not.toContain("Answer");
    expect(all).not.toContain("Printed name");
    expect(all).not.toContain("Signatures");
    pages.forEach((page, index) => expect(page).toContain(`Page ${index + 1} of ${pages.length}`));
  });

  it("print_to_sign: the text, and lines for printed name, signature and date for each signer", async () => {
    const pages = await pagesOf(await renderConsentPdf(blankOf("print_to_sign")));
    const all = pages.join(" ");
    expect(all).toContain("Consent form for signature on paper");
    expect(all).toContain("Tómese el tiempo necesario");
    for (const title of [
      "Participant consent — Participant",
      "Consent obtained by — Clinician obtaining consent",
      "Witnessed by — Impartial witness",
    ]) {
      expect(all).toContain(title);
    }
    expect(all.match(/Printed name Signature Date and time \(with time zone\)/g)).toHaveLength(3);
    expect(all).toContain("Firma del testigo imparcial");
    pages.forEach((page, index) => expect(page).toContain(`Page ${index + 1} of ${pages.length}`));

    // Without signature questions: the given roles, else participant and clinician.
    const noQuestions = { ...blankOf("print_to_sign"), questions: [{ label: "Texto", type: "prompt" }] };
    const fallback = (await pagesOf(await renderConsentPdf(noQuestions))).join(" ");
    expect(fallback.match(/Printed name Signature/g)).toHaveLength(2);
    expect(fallback).toContain("Consent obtained by — Clinician obtaining consent");
    const caregiver = (
      await pagesOf(await renderConsentPdf({ ...noQuestions, signerRoles: ["caregiver"] }))
    ).join(" ");
    expect(caregiver).toContain(
      "Legally authorised representative — Caregiver (legally authorised representative)",
    );
    expect(caregiver.match(/Printed name Signature/g)).toHaveLength(1);
  });
});

describe("the consent PDF's times", () => {
  it("prints a time in its own offset, a server time in UTC, and the zone name when it adds something", () => {
    expect(formatTimeWithOffset("2026-03-05T07:08:09+05:30")).toBe("05-Mar-2026 07:08:09 UTC+05:30");
    expect(formatTimeWithOffset("2026-03-05T07:08:09.123Z")).toBe("05-Mar-2026 07:08:09 UTC");
    expect(formatUtc("2026-03-05T07:08:09.999+02:00")).toBe("05-Mar-2026 05:08:09 UTC");
    expect(formatSignedAt({ captured_at: "2026-11-22T09:30:00+01:00", time_zone: "Europe/Madrid" })).toBe(
      "22-Nov-2026 09:30:00 UTC+01:00 (Europe/Madrid)",
    );
    expect(formatSignedAt({ captured_at: "2026-11-22T09:30:00+01:00", time_zone: "+01:00" })).toBe(
      "22-Nov-2026 09:30:00 UTC+01:00",
    );
  });
});
