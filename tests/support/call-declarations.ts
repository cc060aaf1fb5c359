/**
 * Every call declared in core/contracts/calls/ (each module's exported defineCall values), read
 * from the folder itself: a call added in a new module is found too, so the tests that iterate
 * them (access matrix, bad-input properties) must handle it or fail.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CallDeclaration } from "../../core/contracts/http/define-call.ts";

const callsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../core/contracts/calls");

export type NamedCall = { name: string; module: string; call: CallDeclaration };

function isCallDeclaration(value: unknown): value is CallDeclaration {
  if (value === null || typeof value !== "object") return false;
  const candidate = value as Partial<CallDeclaration>;
  return typeof candidate.method === "string" && typeof candidate.path === "string" && !!candidate.answers;
}

/** Every declared call, by export name (the same declaration exported twice is listed once). */
export async function loadCallDeclarations(): Promise<NamedCall[]> {
  const files = readdirSync(callsDir)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .sort();
  const seen = new Set<CallDeclaration>();
  const calls: NamedCall[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(callsDir, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (!isCallDeclaration(value) || seen.has(value)) continue;
      seen.add(value);
      calls.push({ name, module: file, call: value });
    }
  }
  return calls;
}

/** The names of a call's path parameters: /a/{b}/c/{d} → [b, d]. */
export function pathParamNames(call: CallDeclaration) {
  return [...call.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The path with each parameter replaced by its (already encoded) text. */
export function fillPath(call: CallDeclaration, values: Record<string, string>) {
  return call.path.replace(/\{(\w+)\}/g, (_whole, name: string) => values[name] ?? "1");
}
