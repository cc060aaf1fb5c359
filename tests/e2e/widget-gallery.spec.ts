/**
 * The widget gallery (Ladle, built by `npm run gallery:build` into dist-gallery/): every story
 * opened in Chromium and checked with axe (no serious or critical violation) at tablet size
 * (1024x768) and at phone size (390x844), with a screenshot of each. The stories come from the build's
 * meta.json, so a new story is checked without touching this file.
 */
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe.ts";

/** GALLERY_DIR picks another build (so parallel runs need not share dist-gallery/). */
const GALLERY_DIR = path.resolve(process.env.GALLERY_DIR ?? "dist-gallery");
/**
 * In this run's port range, next to the app's: one per worker, as the groups of stories run side by
 * side (each worker that runs one serves the gallery itself).
 */
const galleryPort = () => Number(process.env.E2E_PORT ?? 4173) + 5 + test.info().parallelIndex;
const SCREENS_DIR = process.env.GALLERY_SCREENS_DIR ?? path.resolve("test-results", "widget-gallery");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

type Meta = { stories: Record<string, { name: string; levels: string[] }> };

function readStories(): string[] {
  const metaPath = path.join(GALLERY_DIR, "meta.json");
  if (!existsSync(metaPath)) throw new Error("No gallery build: run `npm run gallery:build` first.");
  const meta = JSON.parse(readFileSync(metaPath, "utf8")) as Meta;
  return Object.keys(meta.stories).sort();
}

let server: Server;

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://gallery");
    const relative = decodeURIComponent(url.pathname).replace(/^\/+/, "") || "index.html";
    let file = path.join(GALLERY_DIR, relative);
    if (!file.startsWith(GALLERY_DIR) || !existsSync(file) || statSync(file).isDirectory()) {
      file = path.join(GALLERY_DIR, "index.html");
    }
    response.writeHead(200, {
      "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(galleryPort(), "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function openStory(page: Page, id: string) {
  await page.goto(`http://127.0.0.1:${galleryPort()}/?story=${id}&mode=preview`);
  await expect(page.locator("[data-storyloaded]")).toHaveCount(1, { timeout: 15_000 });
  // Lazy widgets (PDF viewer, photo editor) show their loading text first.
  await expect(page.getByText("Loading…", { exact: true })).toHaveCount(0);
  // A story that throws unmounts the whole tree (the provider's main with it), which axe would
  // pass as an empty page.
  await expect(page.locator("main.gallery-story")).toBeAttached();
}

const stories = readStories();

// The groups of stories are long tests: they run side by side.
test.describe.configure({ mode: "parallel" });

test("the gallery has a story for every widget", () => {
  const widgets = new Set(stories.map((id) => id.split("--")[1]));
  for (const widget of [
    "button",
    "checkbox",
    "radio",
    "dropdown",
    "popup",
    "modal",
    "drawer",
    "date-input",
    "time-picker",
    "phone-input",
    "photo-capture",
    "pdf-viewer",
    "meters",
    "filter-box",
    "autocomplete-search",
    "tooltip",
    "video-container",
    "table",
    "file-upload",
    "signature-pad",
    "number-dropdown",
    "toast",
    "mascot",
    "onboarding-card",
    "rich-text-editor",
  ]) {
    expect(widgets, `a story of ${widget}`).toContain(widget);
  }
});

// Tablet is the project's own viewport (1024x768, as the app's page tests), phone the small one;
// each story is opened afresh at each size, and a screenshot of each is kept.
const SIZES = [
  { name: "tablet", width: 1024, height: 768 },
  { name: "phone", width: 390, height: 844 },
];
// In groups, so that the two workers share them evenly (one test of all 75 stories at a size
// would run alone at the end of the suite).
const STORIES_PER_TEST = 13;

for (let first = 0; first < stories.length; first += STORIES_PER_TEST) {
  const group = stories.slice(first, first + STORIES_PER_TEST);
  const last = first + group.length;
  test(`stories ${first + 1} to ${last} of ${stories.length} pass axe at tablet and phone size (screenshots)`, async ({
    page,
  }) => {
    test.setTimeout(group.length * SIZES.length * 8_000);
    mkdirSync(SCREENS_DIR, { recursive: true });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const id of group) {
        await test.step(`${id} at ${size.name} size`, async () => {
          await openStory(page, id);
          await expectNoSeriousViolations(page);
          await page.screenshot({ path: path.join(SCREENS_DIR, `${id}-${size.name}.png`) });
        });
      }
    }
  });
}
