#!/usr/bin/env node
/**
 * The `clinro` command as a package bin: `npx clinro study export --study 7 > study.yaml`.
 * Unlike `npm run clinro -- ...`, npx prints no banner on standard output, so what a data
 * command writes there is the data alone. Loads the TypeScript sources through tsx, as the npm
 * script does with `node --import tsx`.
 */
import { register } from "tsx/esm/api";

register();
await import("../server/cli/main.ts");
