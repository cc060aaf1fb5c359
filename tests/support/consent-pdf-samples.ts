/**
 * Consent PDF inputs for tests and for looking at the result: a Spanish consent with a drawn
 * participant signature, a typed clinician signature and a witness.
 */
import type { ConsentPdfInput } from "../../server/pdf/consent-pdf.ts";
import { signaturePng } from "./signature-png.ts";

export const SAMPLE_HASH = "3f6c1a9be07d52c48e1f0a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f";

const paragraph =
  "Usted ha sido invitado a participar en un estudio de investigación sobre el trastorno depresivo mayor. " +
  "Antes de decidir, es importante que comprenda por qué se realiza la investigación y qué implicará su participación. " +
  "Tómese el tiempo necesario para leer la siguiente información con atención y consúltela con otras personas si lo desea.";

export function sampleQuestions(): ConsentPdfInput["questions"] {
  return [
    { label: "Información para el participante", type: "introduction" },
    ...Array.from({ length: 6 }, (_, index) => ({
      label: `${index + 1}. ${paragraph}`,
      type: "prompt",
    })),
    {
      label: "¿Ha leído y comprendido la información sobre el estudio, y ha podido hacer preguntas?",
      type: "select_one",
      answerText: "Sí, he leído y comprendido la información",
    },
    {
      label: "¿Acepta que sus muestras se conserven para investigaciones futuras (opcional)?",
      type: "select_one",
      answerText: "No, prefiero que no se conserven",
    },
    { label: "Firma del participante", type: "consent_signature", signerRole: "participant" },
    { label: "Firma del investigador", type: "consent_signature", signerRole: "clinro" },
    { label: "Firma del testigo imparcial", type: "consent_signature", signerRole: "witness" },
  ];
}

export function completedSample(overrides: Partial<ConsentPdfInput> = {}): ConsentPdfInput {
  return {
    kind: "completed",
    title: "Consentimiento informado principal — MDD-301",
    consentVersion: 2,
    studyName: "MDD-301",
    participant: { name: "José Ñúñez Peña", subjectId: "MDD-301-0042" },
    questions: sampleQuestions(),
    signatures: [
      {
        question_id: "sig_participant",
        role: "participant",
        meaning: "Participant consent",
        printed_name: "José Ñúñez Peña",
        signature_type: "draw",
        captured_at: "2026-11-22T09:30:12.000+01:00",
        received_at: "2026-11-22T08:30:15.250Z",
        time_zone: "Europe/Madrid",
        verified: true,
        image: signaturePng(),
      },
      {
        question_id: "sig_clinro",
        role: "clinro",
        meaning: "Consent obtained by",
        printed_name: "Dra. Inés Álvarez",
        signature_type: "text",
        captured_at: "2026-11-22T09:41:03.000+01:00",
        received_at: "2026-11-22T08:41:04.100Z",
        time_zone: "Europe/Madrid",
        verified: true,
        typedName: "Inés Álvarez",
      },
      {
        question_id: "sig_witness",
        role: "witness",
        meaning: "Witnessed by",
        printed_name: "Tomás Güell",
        signature_type: "text",
        captured_at: "2026-11-22T03:45:00.000-05:00",
        received_at: "2026-11-22T08:45:01.000Z",
        time_zone: "America/New_York",
        verified: true,
        typedName: "Tomás Güell",
      },
    ],
    recordHash: SAMPLE_HASH,
    allSignaturesVerified: true,
    ...overrides,
  };
}
