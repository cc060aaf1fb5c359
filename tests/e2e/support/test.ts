/**
 * The `test` every end-to-end spec imports: Playwright's, with the app's Content-Security-Policy
 * watched. A page that breaks the policy (a refused script, style, image, connection or worker)
 * fails the test that opened it, naming what was refused, so that the policy and the app cannot
 * drift apart unseen. Contexts a test makes itself are watched with `watchContentSecurityPolicy`.
 */
import { test as base, expect, type BrowserContext } from "@playwright/test";

export { expect };

const VIOLATION_PREFIX = "CSP violation:";

/** Chromium's own words for a refusal, logged to the page's console. */
const isPolicyRefusal = (text: string) =>
  text.startsWith(VIOLATION_PREFIX) ||
  (/Refused to/.test(text) && /Content Security Policy/.test(text)) ||
  /Permissions policy violation/i.test(text);

const violationsOf = new WeakMap<BrowserContext, string[]>();

/**
 * Records every policy refusal of the context's pages: the securitypolicyviolation event (with
 * the directive and the blocked address) and the console messages Chromium writes for them.
 */
export async function watchContentSecurityPolicy(context: BrowserContext): Promise<string[]> {
  const existing = violationsOf.get(context);
  if (existing) return existing;
  const violations: string[] = [];
  violationsOf.set(context, violations);
  await context.addInitScript((prefix: string) => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(
        `${prefix} ${event.effectiveDirective} refused ${event.blockedURI || "(inline)"} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  }, VIOLATION_PREFIX);
  context.on("console", (message) => {
    const text = message.text();
    if (isPolicyRefusal(text)) violations.push(`${message.page()?.url() ?? "?"}: ${text}`);
  });
  return violations;
}

/** Fails the test when the context's pages broke the policy. */
export function expectNoPolicyViolations(context: BrowserContext) {
  expect(violationsOf.get(context) ?? [], "Content-Security-Policy or Permissions-Policy refusals").toEqual(
    [],
  );
}

export const test = base.extend<{ contentSecurityPolicy: void }>({
  contentSecurityPolicy: [
    async ({ context }, use) => {
      await watchContentSecurityPolicy(context);
      await use();
      expectNoPolicyViolations(context);
    },
    { auto: true },
  ],
});
