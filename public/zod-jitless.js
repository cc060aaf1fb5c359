// Runs before any module of the app (a classic script ahead of the module scripts in index.html):
// zod reads this object as its configuration, so no schema ever probes for `new Function`, which
// the Content-Security-Policy refuses. src/contracts/zod-jitless.ts makes the same setting for the
// worker, the tests and the early definition script; it alone came too late here, since the
// bundler runs the shared chunks (and their top-level schemas) before the entry's own code.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
