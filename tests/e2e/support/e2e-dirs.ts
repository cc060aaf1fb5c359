/**
 * The data directory and the build the end-to-end server uses. Several checkouts or builds on
 * one machine (helpers working side by side) each set their own through the environment.
 */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".e2e-data";
export const E2E_STATIC_DIR = process.env.E2E_STATIC_DIR ?? "dist";
