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
  // Sizes on 2026-11-22 after consents, visits and the call declarations arrived, in the
  // comments (before them: app 183.5, instrument route 206.8). The app's growth is the English
  // catalog (in the first download) and the call declarations src/api builds its URLs from:
  // splitting the catalogs by area and keeping the declarations' schemas out of the first
  // download is what brings the instrument route back to issue 13's 206 KiB.
  // +2 KiB on every line (issue 11, spec 01's remaining rows): what must be in the first
  // download because it works when a chunk does not arrive (the 120 s chunk time-out and its
  // retry) or when nothing else runs (the inactivity watcher; the lock's own form and password
  // check load on demand), and the catalog's new strings.
  // Issue 9's mutation hooks (TanStack Query's useMutation, first used then) and the widgets'
  // first-download share added 2 KiB more to every line on 2026-11-23.
  // Issue 12 added 3 KiB to every line: the outbox's and drafts' records are read with zod
  // (versioned, migrated on load), and the outbox is part of the first download.
  // Issue 11's inbox added 4 KiB to every line (5 to the Spanish catalog's): the navigation
  // bar's Inbox entry with its unread dot (the announcements list query, on every page), the two
  // inbox routes, the activities onboarding card on the studies page (shown in the first render,
  // so the list does not move under a tap), and the catalogs' new strings. The announcements'
  // schemas and requests and the inbox pages load on demand.
  // +1 KiB on every line (issue 11's review): the Inbox entry and page show an announcement read
  // as soon as it is opened, while its read event waits in the outbox (the outbox query, which
  // the first download already holds for the pending badge).
  app: 216, // 201.6
  "src/features/instrument/instrument-route.tsx": 234, // 220.2
  "src/features/password/change-password-page.tsx": 217, // 202.9
  "src/features/password/forced-change-password-page.tsx": 217, // 202.9
  "src/features/profile/profile-page.tsx": 246, // 232.1
  // The users page carries the table widget (TanStack Table's sorting, 2026-11-23: 213.5).
  "src/features/users/users-page.tsx": 227, // 213.5
  "src/i18n/locales/en/messages.po": 216, // 201.6
  "src/i18n/locales/es/messages.po": 225, // 209.6
  "node_modules/dayjs/locale/es.js": 216, // 202.5
  "src/api/consents-api.ts": 218, // 203.8
  // With the table widget (TanStack Table) since 2026-11-23 (before: 208.2).
  "src/features/consents/consent-routes.tsx": 233, // 219.1
  "src/features/consent-completion/consent-completion-route.tsx": 248, // 233.7
  "src/features/visits/visits-route.tsx": 222, // 207.6
  "src/features/visit-join/join-route.tsx": 222, // 208.4
  "src/app/visit-room/visit-room-overlay.tsx": 223, // 209.3
  "src/video/builtin-webrtc.ts": 222, // 208.3
  // Loaded only when a site's room is on Agora: the SDK itself.
  "node_modules/agora-rtc-sdk-ng/AgoraRTC_N-production.js": 647, // 633.5
  // The consent participants' filter box (React Aria's popover, dialog and checkbox group),
  // loaded once the list is on screen.
  "src/widgets/filter-box/filter-box.tsx": 252, // 237.8
  // Question types loaded on demand inside the instrument route: the app plus the piece.
  "src/survey/questions/image-capture-question.tsx": 235, // 219.3
  "src/survey/questions/pdf-question.tsx": 404, // 389.5
  "src/survey/questions/scribble-question.tsx": 222, // 208.3
  // The inbox: DOMPurify (the browser's second sanitising of announcements' HTML), the onboarding
  // card and the mascot (2026-11-24: 229.3).
  "src/features/inbox/inbox-page.tsx": 234,
  // TipTap and ProseMirror, loaded when the announcement form opens (2026-11-24: 377.7).
  "src/widgets/rich-text-editor/rich-text-editor.tsx": 382,
};
/** The app's budget and a little room for a new page's own code. */
export const DEFAULT_LAZY_BUDGET_KIB = 222;

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
