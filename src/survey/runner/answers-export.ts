/**
 * The file a clinician keeps when the device cannot keep their work (a store that refuses the
 * draft or the finished form): what was entered, the flow and answers as they are,
 * photos and signatures as base64. A coordinator can read it, and support can re-enter it.
 */
import { toPortableJson } from "../../outbox/portable-json.ts";
import { downloadJson } from "../../widgets/download/download-json.ts";
import type { SurveyDraft } from "./survey-draft.ts";

export const ANSWERS_EXPORT_FORMAT = "clinro-answers";

export async function answersExport(title: string, answers: Partial<SurveyDraft>, now = new Date()) {
  return {
    format: ANSWERS_EXPORT_FORMAT,
    title,
    exportedAt: now.toISOString(),
    answers: await toPortableJson(answers),
  };
}

export async function downloadAnswers(title: string, answers: Partial<SurveyDraft>, now = new Date()) {
  downloadJson(`clinro-answers-${now.getTime()}.json`, await answersExport(title, answers, now));
}
