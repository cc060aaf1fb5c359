/** Set by Vite's define: the package version of this build. */
declare const __APP_VERSION__: string;
