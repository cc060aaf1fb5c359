/**
 * Imported first by the browser's entry points (the app, the early definition script, the
 * service worker), never by the server: zod's fast object parsers are compiled with
 * `new Function`, which the Content-Security-Policy forbids (script-src without 'unsafe-eval').
 * Without this, zod probes for eval and every page reports a refused eval; with it, zod never
 * tries and parses the ordinary way. Must run before any schema is made.
 */
import { config } from "zod/v4/core";

// z.config is this same function; importing it from the core keeps the rest of zod out of the
// first download (the schemas load with the pages that use them).
config({ jitless: true });
