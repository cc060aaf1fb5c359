/**
 * The layer rules of eslint.config.js (docs/architecture.md), each proven to fail: a probe file
 * that breaks one rule is written into the tree where the rule applies, linted, and removed.
 * A rule that stopped matching (a renamed folder, a plugin's changed options) fails here, not
 * silently in review.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

type Probe = {
  rule: string;
  /** Files to write, relative to the root: the first is linted. */
  files: Record<string, string>;
};

async function lintProbe({ rule, files }: Probe) {
  const written = Object.keys(files).map((file) => path.join(root, file));
  try {
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === rule });
    const [result] = await eslint.lintFiles([written[0]!]);
    return result!.messages.map((message) => `${message.ruleId ?? "parse"}: ${message.message}`);
  } finally {
    await Promise.all(written.map((file) => rm(file, { force: true })));
  }
}

const PROBES: [string, Probe][] = [
  [
    "the kernel imports no React",
    {
      rule: "no-restricted-imports",
      files: {
        "core/contracts/zz-probe.ts": 'import { useState } from "react";\nexport const probe = useState;\n',
      },
    },
  ],
  [
    "the kernel imports no feature",
    {
      rule: "boundaries/dependencies",
      files: {
        "core/contracts/zz-probe.ts":
          'import { StudiesPage } from "../../src/features/studies/studies-page.tsx";\nexport const probe = StudiesPage;\n',
      },
    },
  ],
  [
    "the survey engine imports no widget",
    {
      rule: "boundaries/dependencies",
      files: {
        "core/survey-engine/zz-probe.ts":
          'import { showToast } from "../../src/widgets/toast/toast-store.ts";\nexport const probe = showToast;\n',
      },
    },
  ],
  [
    "a widget imports no feature",
    {
      rule: "boundaries/dependencies",
      files: {
        "src/widgets/zz-probe/zz-probe.ts":
          'import { StudiesPage } from "../../features/studies/studies-page.tsx";\nexport const probe = StudiesPage;\n',
      },
    },
  ],
  [
    "src/api imports no feature",
    {
      rule: "boundaries/dependencies",
      files: {
        "src/api/zz-probe.ts":
          'import { StudiesPage } from "../features/studies/studies-page.tsx";\nexport const probe = StudiesPage;\n',
      },
    },
  ],
  [
    "a feature imports not the router",
    {
      rule: "boundaries/dependencies",
      files: {
        "src/features/studies/zz-probe.ts":
          'import { router } from "../../app/router.tsx";\nexport const probe = router;\n',
      },
    },
  ],
  [
    "the outbox imports nothing above it",
    {
      rule: "boundaries/dependencies",
      files: {
        "src/outbox/zz-probe.ts":
          'import { request } from "../api/request.ts";\nexport const probe = request;\n',
      },
    },
  ],
  [
    "the service worker imports no React",
    {
      rule: "no-restricted-imports",
      files: { "sw/zz-probe.ts": 'import { useState } from "react";\nexport const probe = useState;\n' },
    },
  ],
  [
    "the service worker imports nothing from the app",
    {
      rule: "boundaries/dependencies",
      files: {
        "sw/zz-probe.ts": 'import { router } from "../src/app/router.tsx";\nexport const probe = router;\n',
      },
    },
  ],
  [
    "a feature imports no other feature",
    {
      rule: "local/no-cross-feature-imports",
      files: {
        "src/features/studies/zz-probe.ts":
          'import { InboxPage } from "../inbox/inbox-page.tsx";\nexport const probe = InboxPage;\n',
      },
    },
  ],
  [
    "a comment says why, not which issue",
    {
      rule: "local/no-issue-citations",
      files: { "server/zz-probe.ts": "// The limit of issue " + "12.\nexport const probe = 1;\n" },
    },
  ],
  [
    "no import cycle",
    {
      rule: "import-x/no-cycle",
      files: {
        "src/outbox/zz-probe-a.ts": 'import { b } from "./zz-probe-b.ts";\nexport const a = () => b;\n',
        "src/outbox/zz-probe-b.ts": 'import { a } from "./zz-probe-a.ts";\nexport const b = () => a;\n',
      },
    },
  ],
  [
    "only src/api calls fetch",
    {
      rule: "no-restricted-globals",
      files: { "src/video/zz-probe.ts": 'export const probe = () => fetch("/control/studies");\n' },
    },
  ],
  [
    "only src/api opens a WebSocket",
    {
      rule: "no-restricted-globals",
      files: { "src/video/zz-probe.ts": 'export const probe = () => new WebSocket("ws://localhost/");\n' },
    },
  ],
];

describe("the layer rules fail where they must (eslint.config.js)", () => {
  it.each(PROBES)("%s", async (_name, probe) => {
    const messages = await lintProbe(probe);
    expect(messages.length, messages.join("\n")).toBeGreaterThan(0);
    expect(
      messages.every((message) => message.startsWith(`${probe.rule}:`)),
      messages.join("\n"),
    ).toBe(true);
  });

  it("allows what the layers allow: a feature imports a widget, the engine the kernel", async () => {
    expect(
      await lintProbe({
        rule: "boundaries/dependencies",
        files: {
          "src/features/studies/zz-probe.ts":
            'import { showToast } from "../../widgets/toast/toast-store.ts";\nexport const probe = showToast;\n',
        },
      }),
    ).toEqual([]);
    expect(
      await lintProbe({
        rule: "boundaries/dependencies",
        files: {
          "core/survey-engine/zz-probe.ts":
            'import { ROLE_CODE } from "../contracts/roles.ts";\nexport const probe = ROLE_CODE;\n',
        },
      }),
    ).toEqual([]);
  });
});
