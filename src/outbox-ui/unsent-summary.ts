/**
 * What waits in the outbox, counted as a coordinator counts it: a form (an
 * instrument or a consent) is one, however many files (photos, signatures) go with it; a new
 * participant is one; a file is counted on its own only when no form waiting here takes it
 * along; events (a form opened, an announcement read) and refused signing passwords are
 * "updates"; a sign-out waiting for the server is not counted. The words are the caller's:
 * `unsentPhrases` gives the counted phrases, joined as the reader's language joins a list.
 */
import type { I18n } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import type { OutboxItem } from "../outbox/outbox-item.ts";

export type UnsentSummary = {
  /** Instrument submissions and consents. */
  forms: number;
  /** Participants added on this device whose enrolment has not reached the server. */
  participants: number;
  /** Uploads that belong to no form waiting here. */
  files: number;
  /** Events. */
  updates: number;
};

export const NOTHING_UNSENT: UnsentSummary = { forms: 0, participants: 0, files: 0, updates: 0 };

type Counted = Pick<OutboxItem, "id" | "kind" | "dependsOn">;

/** The files a form waiting here takes along: uploads it depends on. */
function filesOfForms(items: readonly Counted[]) {
  const ids = new Set<string>();
  for (const item of items) {
    if (item.kind === "submission" || item.kind === "consent") item.dependsOn.forEach((id) => ids.add(id));
  }
  return ids;
}

export function summarizeUnsent(items: readonly Counted[]): UnsentSummary {
  const taken = filesOfForms(items);
  const summary = { ...NOTHING_UNSENT };
  for (const item of items) {
    if (item.kind === "submission" || item.kind === "consent") summary.forms += 1;
    else if (item.kind === "enrolment") summary.participants += 1;
    else if (item.kind === "upload") summary.files += taken.has(item.id) ? 0 : 1;
    // A sign-out is no one's work: a session the server has still to close.
    else if (item.kind !== "revocation") summary.updates += 1;
  }
  return summary;
}

export function unsentTotal(summary: UnsentSummary) {
  return summary.forms + summary.participants + summary.files + summary.updates;
}

/** Whether an upload is one of a form's files (counted with the form, not on its own). */
export function belongsToForm(item: Counted, items: readonly Counted[]) {
  return item.kind === "upload" && filesOfForms(items).has(item.id);
}

/** "2 forms", "1 new participant", "3 files", "1 update": the non-zero counts, in that order. */
export function unsentPhrases(summary: UnsentSummary, i18n: I18n): string[] {
  const { forms, participants, files, updates } = summary;
  const phrases: string[] = [];
  if (forms > 0)
    phrases.push(
      i18n._(msg({ id: "unsent_forms", message: plural(forms, { one: "# form", other: "# forms" }) })),
    );
  if (participants > 0)
    phrases.push(
      i18n._(
        msg({
          id: "unsent_participants",
          message: plural(participants, { one: "# new participant", other: "# new participants" }),
        }),
      ),
    );
  if (files > 0)
    phrases.push(
      i18n._(msg({ id: "unsent_files", message: plural(files, { one: "# file", other: "# files" }) })),
    );
  if (updates > 0)
    phrases.push(
      i18n._(
        msg({ id: "unsent_updates", message: plural(updates, { one: "# update", other: "# updates" }) }),
      ),
    );
  return phrases;
}

/** The phrases as one list in the reader's language: "2 forms and 1 update". */
export function unsentList(summary: UnsentSummary, i18n: I18n): string {
  const phrases = unsentPhrases(summary, i18n);
  return new Intl.ListFormat(i18n.locale, { style: "long", type: "conjunction" }).format(phrases);
}
