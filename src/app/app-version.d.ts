/** Set by Vite's define: the package version of this build. */
declare const __APP_VERSION__: string;
/**
 * The instrument route's own JS and CSS files (/assets/…), written into the early start script
 * by vite.config.ts in the build; empty in development, where Vite serves modules one by one.
 */
declare const __INSTRUMENT_ROUTE_FILES__: readonly string[];
