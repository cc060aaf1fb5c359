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
  // Each line sits about a KiB above the size of the day it was set (the comment); every lazy
  // line counts the first load too, so the first load's growth raises them all. Why each line is
  // what it is, with the figures of each change: docs/bundle-budgets.md.
  app: 183, // 181.9
  // Over the default by the first load's growth.
  "src/features/participant-home/submission-review.tsx": 188, // 187.1
  // What a survey needs when the device refuses to store (the not-stored dialog, the draft alert,
  // the answers export) cannot load on demand: it is needed exactly when the device is in trouble.
  "src/features/instrument/instrument-route.tsx": 216, // 215.1

  "src/features/password/forced-change-password-page.tsx": 185, // 184.0
  "src/features/session/inactivity-lock.tsx": 184, // 183.0
  // The to-do list with its outbox view and the consent-first lock.
  "src/features/participant-home/participant-home-page.tsx": 196, // 195.0
  // A participant added offline: the correction form of a refused enrolment and the device's
  // instrument lists.
  "src/features/enrolment/pending-participant-page.tsx": 196, // 195.1
  "src/features/profile/profile-page.tsx": 213, // 212.1
  // The users page carries the table widget (TanStack Table's sorting).
  "src/features/users/users-page.tsx": 196, // 194.7
  // The site's sorted, paged participant list beside the search.
  "src/features/participant-search/participant-search-page.tsx": 186, // 185.1
  // The site's pending instruments across participants, with the table widget.
  "src/features/pending-instruments/pending-instruments-page.tsx": 198, // 196.8
  // The catalogs load on demand; each grows with the portal's texts.
  "src/i18n/locales/es/messages.po": 198, // 197.0
  "src/i18n/locales/fr/messages.po": 199, // 198.0
  "src/i18n/locales/de/messages.po": 199, // 198.0
  "src/i18n/locales/pt-BR/messages.po": 198, // 197.2
  "src/api/consents-api.ts": 188, // 186.6
  // With the table widget (TanStack Table) and 'See consent' in the PDF viewer's dialog.
  "src/features/consents/consent-routes.tsx": 204, // 202.9
  // Signing for a participant enrolled offline (the queued enrolment and the id map), whose
  // record it is, and the kernel's consent status, shared with the server.
  "src/features/consent-completion/consent-completion-route.tsx": 233, // 232.2
  "src/features/visits/visits-route.tsx": 188, // 187.1
  "src/features/visit-join/join-route.tsx": 189, // 187.7
  "src/app/visit-room/visit-room-overlay.tsx": 190, // 189.0
  // Loaded only when a site's room is on Agora: the SDK itself.
  "node_modules/agora-rtc-sdk-ng/AgoraRTC_N-production.js": 614, // 612.9
  // The consent participants' filter box (React Aria's popover, dialog and checkbox group),
  // loaded once the list is on screen.
  "src/widgets/filter-box/filter-box.tsx": 219, // 217.7
  // Question types loaded on demand inside the instrument route: the app plus the piece. The
  // photo's closure counts the survey runner's chunk too, which the route has already loaded.
  "src/survey/questions/image-capture-question.tsx": 209, // 207.5
  "src/survey/questions/pdf-question.tsx": 371, // 370.0
  // react-pdf and pdf.js, loaded only when a completed consent is opened.
  "src/widgets/pdf-viewer/pdf-viewer.tsx": 370, // 368.9
  // The spec's date input and time picker (React Aria's date field), on demand.
  "src/survey/questions/date-question.tsx": 201, // 199.9
  "src/survey/questions/datetime-question.tsx": 204, // 202.6
  "src/survey/questions/scribble-question.tsx": 190, // 189.1
  // The inbox: DOMPurify (the browser's second sanitising of announcements' HTML), the onboarding
  // card and the mascot.
  "src/features/inbox/inbox-page.tsx": 197, // 196.1
  // The date of birth and the visit's date and time in the spec's date input and time picker.
  "src/features/enrolment/add-participant-page.tsx": 191, // 189.8
  "src/features/enrolment/edit-participant-page.tsx": 191, // 189.6
  "src/features/participant-home/schedule-visit-dialog.tsx": 190, // 189.0
  // The staff pages share the users page's study-role words.
  "src/features/users/invite-user-page.tsx": 189, // 187.8
  "src/features/users/staff-import-page.tsx": 188, // 187.0
  "src/features/users/staff-access-page.tsx": 190, // 188.8
  // "Sign again" on the queue page: the consent signature question's texts and the consent
  // schemas it signs with, loaded when it opens.
  "src/features/outbox-review/sign-again-dialog.tsx": 206, // 204.9
  // TipTap and ProseMirror, loaded when the announcement form opens.
  "src/widgets/rich-text-editor/rich-text-editor.tsx": 347, // 346.0
};
/** The app's budget and a little room for a new page's own code. */
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
