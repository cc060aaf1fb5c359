/** Set by Vite's define: the package version of this build. */
declare const __APP_VERSION__: string;
/**
 * Each early route page's path and its own JS and CSS files (/assets/…), written into the early
 * start script by vite.config.ts in the build (see src/app/early-route-pages.ts); empty in
 * development, where Vite serves modules one by one.
 */
declare const __ROUTE_FILES__: readonly (readonly [string, readonly string[]])[];
