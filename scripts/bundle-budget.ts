/**
 * The bundle-size budget, checked by every `vite build` (a plugin of vite.config.ts): for the
 * app's first load and for each page or piece loaded on demand, the JS and CSS a visit to it
 * downloads (the app's entry with its static imports, plus the lazy chunk with its own), gzip -9
 * per file and summed, as bench/survey measures the instrument route. The build prints the table
 * and fails when one grows past its budget. A lazy chunk without its own line is held to
 * DEFAULT_LAZY_BUDGET_KIB; give it a line when it is a new route.
 *
 * Budgets sit a little above the sizes of the day they were set: raising one is a decision made
 * in review, with the bench's figures, not a side effect of a merge.
 */
import { gzipSync } from "node:zlib";
import path from "node:path";
import type { Plugin, Rollup } from "vite";

type OutputAsset = Rollup.OutputAsset;
type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** KiB of gzip JS + CSS, by the lazy chunk's source module ("app" is the first load). */
export const BUNDLE_BUDGETS_KIB: Record<string, number> = {
  // Issue 13 set every line anew, a KiB or so above the day's size (in the comments). On
  // 2026-11-24: the app 214.5 -> 188.9 and the instrument route 233.4 -> 203.9 (the contracts and
  // the engine's schemas in zod/mini, fflate and the service worker's registration out of the
  // first download, the participant pages on demand). On 2026-11-25: one chunk for the app's
  // first load instead of merging small chunks (vite.config.ts appChunk), which had moved lazy
  // pages into it: the app 173.2, the instrument route 190.7. The instrument route is held to
  // issue 13's 206 KiB. On 2026-11-27 (issue 23), what a survey needs when the device refuses to
  // store (the not-stored dialog, the draft alert, the answers export) and the to-do list's
  // outbox view: the instrument route 190.7 -> 196.1 (with issue 29), the participant home 179.9 -> 183.3; these
  // cannot load on demand, as they are needed exactly when the device is in trouble.
  // Issue 26 (dates): choosing the dates' locale among every one dayjs ships (their names, the
  // rule) and the one date and time format: about 1.0 KiB (esbuild, gzip -9, of src/i18n's
  // modules before and after); the locales themselves and the map of them load on demand.
  // Issue 26 (item 21, polish): one radio style (radio.css), legible disabled buttons and the
  // install icon's mark as the logo: 0.5 KiB (0.34 of CSS, 0.15 of brand.tsx; esbuild, gzip -9).
  // Issue 26, whole (measured at its end, 2026-11-27): the first load carries the English texts
  // and code of the screens it added or reworded (the queue in a coordinator's words and the
  // form count in the navigation's badge, the site's participant list, study roles, announcement
  // instruments, answers' authors, the date input's rule): 177 -> 178.5. Every lazy route counts
  // the first load too, so each line below grew by at least that much (each measured).
  // Issue 43 (items 4 to 6, measured 2026-12-02 on the day's merges): the queue's sign-out and
  // refused-signing items (the drain's sign-out-first rule, the records' version 4), "Sign again"
  // on a consent refused for its signer's password, the sign-in page's word on a sign-out still
  // to reach the server and their English texts, about 1.8 KiB: 181.0. Every line that build
  // found over its budget was set again from it (lazy chunks count the first load).
  // A revoked session ended at the outbox's first 401 (src/auth/refused-session.ts) and
  // the day's merges: the first load 181.7, and the lazy lines that build found over set again.
  app: 183, // 181.9
  // The participant's submission review, over the default by the first load's growth.
  "src/features/participant-home/submission-review.tsx": 188, // 187.1
  // Site set-up (2026-11-27): the first load's English catalog holds the new screens' messages
  // (app 166.7 -> 171.2) and the outbox enrols offline (provisional participants, their map):
  // the instrument route 196.1 -> 201.1, the consent route 207.2 -> 212.2, the photo 192.5 -> 196.9.
  // Issue 26: the English catalog in the first load grows with its texts (greeting, study roles,
  // the forced password change's confirmation): 201.1 -> 203.0.
  // Issue 26 (whole): the route counts the first load's growth (above) and the runner's record
  // context, answers' authors and answered-by notes; the date and datetime controls load on
  // demand (React Aria's date field, 2.9 KiB), as the photo and the drawing do: 208.6, over issue
  // 13's 206 by the first load's texts.
  // Show-if on one screen (2026-12-02): the question asked before erasing the answers an answer
  // hides, the live announcement of the questions it shows, their texts and the engine's
  // visibility by answers being edited: about 1.2 KiB (esbuild, gzip -9, of the two components
  // and the changed engine modules); the route 209.9, the date and datetime controls 199.9 and 200.1.
  // Consent first: the lock, its notice and the participant's cached consents read with the
  // outbox: 213.2 -> 215.1.
  "src/features/instrument/instrument-route.tsx": 216, // 215.1

  "src/features/password/forced-change-password-page.tsx": 185, // 184.0
  // Consent first: the first load reads and keeps an outbox item's consent (its version 5).
  "src/features/session/inactivity-lock.tsx": 184, // 183.0
  // Issue 26: a completed instrument's Review (the dialog itself loads on demand): 183.3 -> 184.4.
  // Issue 26: the first load's English catalog grows with the forced password change's confirmation.
  // Consent first: the to-do list locked with the way to the consent: 193.1 -> 195.0.
  "src/features/participant-home/participant-home-page.tsx": 196, // 195.0
  // A participant added offline: their page with the correction form of a refused enrolment and
  // the device's instrument lists (site set-up).
  "src/features/enrolment/pending-participant-page.tsx": 196, // 195.1
  "src/features/profile/profile-page.tsx": 213, // 212.1
  // The users page carries the table widget (TanStack Table's sorting).
  "src/features/users/users-page.tsx": 196, // 194.7
  // Issue 26 (item 8): the participant search with the site's sorted, paged list (its chunk 2.3 KiB
  // of JS and 0.4 of CSS), measured in a tree whose first load was 180.3.
  "src/features/participant-search/participant-search-page.tsx": 186, // 185.1
  // Issue 26: the site's pending instruments across participants, with the table widget.
  "src/features/pending-instruments/pending-instruments-page.tsx": 198, // 196.8
  // Issue 26: the Spanish catalog grows with each of its texts (greeting, toasts, video room, password).
  "src/i18n/locales/es/messages.po": 198, // 197.0 with issue 43's texts
  // Issue 26 (item 15): the French, German and Brazilian Portuguese catalogs, loaded on demand
  // like the Spanish one, measured with the three in lingui.config.ts's locales: the app's first
  // load (178.5 at 78311ee) and the catalog's own 15.1, 15.1 and 14.3 KiB (851 messages).
  // Consent first's six texts: about 1 KiB more on each catalog's route.
  "src/i18n/locales/fr/messages.po": 199, // 198.0
  "src/i18n/locales/de/messages.po": 199, // 198.0
  "src/i18n/locales/pt-BR/messages.po": 198, // 197.2
  "src/api/consents-api.ts": 188, // 186.6
  // With the table widget (TanStack Table).
  // Issue 26: Start consent and 'See consent' in the PDF viewer's dialog (191.4 -> 192.1).
  "src/features/consents/consent-routes.tsx": 204, // 202.9
  // Signing for a participant enrolled offline: the queued enrolment and the id map (site set-up).
  // Issue 26: whose record it is (participant, subject id, study, site), the consent's failure
  // events and the email confirmation: 215.2 -> 217.0.
  // Consent first: the queued signing says whether it completes the consent (the kernel's
  // consent status, shared with the server): 231.0 -> 232.2.
  "src/features/consent-completion/consent-completion-route.tsx": 233, // 232.2
  "src/features/visits/visits-route.tsx": 188, // 187.1
  "src/features/visit-join/join-route.tsx": 189, // 187.7
  "src/app/visit-room/visit-room-overlay.tsx": 190, // 189.0
  // Loaded only when a site's room is on Agora: the SDK itself.
  // Issue 43: the first load's English catalog holds the sign-in page's reasons for a refused
  // session and the queue's words for other users' items (610.4 -> 611.0 with the merges of the day).
  "node_modules/agora-rtc-sdk-ng/AgoraRTC_N-production.js": 614, // 612.9
  // The consent participants' filter box (React Aria's popover, dialog and checkbox group),
  // loaded once the list is on screen.
  "src/widgets/filter-box/filter-box.tsx": 219, // 217.7
  // Question types loaded on demand inside the instrument route: the app plus the piece. The
  // photo's closure counts the survey runner's chunk too, which the route has already loaded.
  // Issue 26: the survey runner names whose record it is (196.9 -> 198.2).
  "src/survey/questions/image-capture-question.tsx": 209, // 207.5
  "src/survey/questions/pdf-question.tsx": 371, // 370.0
  // Issue 26: 'See consent' opens the completed consent in the same PDF viewer (react-pdf and
  // pdf.js), loaded only when a consent is opened from the consent participants page.
  // Issue 43: the first load's texts (above): 366.4 -> 367.0.
  "src/widgets/pdf-viewer/pdf-viewer.tsx": 370, // 368.9
  // Issue 26 (item 14): the spec's date input and time picker, on demand inside the instrument route.
  "src/survey/questions/date-question.tsx": 201, // 199.9
  "src/survey/questions/datetime-question.tsx": 204, // 202.6
  "src/survey/questions/scribble-question.tsx": 190, // 189.1
  // The inbox: DOMPurify (the browser's second sanitising of announcements' HTML), the onboarding
  // card and the mascot.
  "src/features/inbox/inbox-page.tsx": 197, // 196.1
  // Issue 26 (item 14): the date of birth and the visit's date and time in the spec's date input
  // and time picker (React Aria's date field) instead of the browser's pickers.
  "src/features/enrolment/add-participant-page.tsx": 191, // 189.8
  "src/features/enrolment/edit-participant-page.tsx": 191, // 189.6
  "src/features/participant-home/schedule-visit-dialog.tsx": 190, // 189.0 with the device clock (issue 43)
  // Issue 26 (item 7): the staff pages share the users page's study-role words.
  "src/features/users/invite-user-page.tsx": 189, // 187.8
  // The staff CSV import, at the default until the first load's consent first (187.0).
  "src/features/users/staff-import-page.tsx": 188, // 187.0
  "src/features/users/staff-access-page.tsx": 190, // 188.8
  // Issue 43: the signature dialog of "Sign again" on the queue page, with the consent signature
  // question's texts and the consent schemas it signs with, loaded when it opens.
  "src/features/outbox-review/sign-again-dialog.tsx": 206, // 204.9
  // TipTap and ProseMirror, loaded when the announcement form opens.
  "src/widgets/rich-text-editor/rich-text-editor.tsx": 347, // 346.0
};
/**
 * The app's budget and a little room for a new page's own code. Issue 43: the first load's texts
 * (above) took the staff import page to 184.3 and a submission's review to 184.1.
 */
export const DEFAULT_LAZY_BUDGET_KIB = 187;

export type BudgetRow = {
  name: string;
  files: number;
  gzipKiB: number;
  budgetKiB: number;
  defaulted: boolean;
};

function gzipKiB(source: string | Uint8Array) {
  return gzipSync(source, { level: 9 }).length / 1024;
}

/** A chunk and everything it imports statically, with the CSS they bring. */
function closure(bundle: OutputBundle, start: OutputChunk, into = new Set<string>()) {
  if (into.has(start.fileName)) return into;
  into.add(start.fileName);
  for (const css of start.viteMetadata?.importedCss ?? []) into.add(css);
  for (const name of start.imports) {
    const next = bundle[name];
    if (next?.type === "chunk") closure(bundle, next, into);
  }
  return into;
}

/**
 * The module a lazy chunk is loaded for: its facade, or (when Rollup merged it with modules it
 * shares, and gave it no facade) the module in it that something imports dynamically.
 */
export type DynamicEntryOf = (chunk: OutputChunk) => string | undefined;

export function budgetTable(bundle: OutputBundle, root: string, entryOf: DynamicEntryOf): BudgetRow[] {
  const sizes = new Map<string, number>();
  const sizeOf = (fileName: string) => {
    let size = sizes.get(fileName);
    if (size === undefined) {
      const item = bundle[fileName] as OutputChunk | OutputAsset | undefined;
      size = !item ? 0 : item.type === "chunk" ? gzipKiB(item.code) : gzipKiB(item.source);
      sizes.set(fileName, size);
    }
    return size;
  };
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === "chunk");
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith("index.html"));
  if (!entry) return [];
  const appFiles = closure(bundle, entry);
  // Classic scripts of index.html built outside Rollup (the early definition download) are
  // assets: every visit downloads them too. The PDF worker (.mjs) is the PDF question's own.
  for (const item of Object.values(bundle)) {
    if (item.type === "asset" && item.fileName.endsWith(".js")) appFiles.add(item.fileName);
  }
  const row = (name: string, files: Set<string>): BudgetRow => {
    const own = BUNDLE_BUDGETS_KIB[name];
    return {
      name,
      files: files.size,
      gzipKiB: [...files].reduce((sum, file) => sum + sizeOf(file), 0),
      budgetKiB: own ?? DEFAULT_LAZY_BUDGET_KIB,
      defaulted: own === undefined,
    };
  };
  const rows = [row("app", appFiles)];
  for (const chunk of chunks) {
    const module = chunk.isDynamicEntry ? entryOf(chunk) : undefined;
    if (!module) continue;
    // Rollup marks some ids (CommonJS wrappers) with a leading NUL and a query.
    const file = module.replace(/^\0/, "").replace(/\?.*$/, "");
    const name = path.relative(root, file).split(path.sep).join("/");
    rows.push(row(name, closure(bundle, chunk, new Set(appFiles))));
  }
  return rows.sort((a, b) => (a.name === "app" ? -1 : b.name === "app" ? 1 : a.name.localeCompare(b.name)));
}

export function formatBudgetTable(rows: readonly BudgetRow[]) {
  const lines = [
    `${"JS + CSS a visit downloads, gzip -9".padEnd(58)}${"files".padStart(6)}${"KiB".padStart(9)}${"budget".padStart(9)}`,
  ];
  for (const row of rows) {
    const verdict = row.gzipKiB > row.budgetKiB ? "  OVER BUDGET" : row.defaulted ? "  (default budget)" : "";
    lines.push(
      `${row.name.padEnd(58)}${String(row.files).padStart(6)}${row.gzipKiB.toFixed(1).padStart(9)}${row.budgetKiB.toFixed(0).padStart(9)}${verdict}`,
    );
  }
  return lines.join("\n");
}

/** The build step: prints the table, fails the build on a route over its budget. */
export function bundleBudget(): Plugin {
  let root = process.cwd();
  return {
    name: "clinro:bundle-budget",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const rows = budgetTable(
        bundle,
        root,
        (chunk) =>
          chunk.facadeModuleId ??
          chunk.moduleIds.find((id) => (this.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0),
      );
      if (rows.length === 0) return;
      console.log(`\nbundle budget (scripts/bundle-budget.ts)\n${formatBudgetTable(rows)}\n`);
      const over = rows.filter((row) => row.gzipKiB > row.budgetKiB);
      if (over.length > 0) {
        this.error(
          `Over the bundle budget (scripts/bundle-budget.ts): ${over
            .map((row) => `${row.name} ${row.gzipKiB.toFixed(1)} KiB > ${row.budgetKiB} KiB`)
            .join("; ")}`,
        );
      }
    },
  };
}
