/**
 * The parts of a request that the request module and the early definition download
 * (early-definition-start.ts, which runs before the app's modules) must build the same way:
 * the URL with its query string and the headers every authenticated call carries. No imports, so
 * the early script stays a few hundred bytes.
 */
export type RequestQuery = Record<string, string | number | boolean | undefined>;

export function buildUrl(path: string, query: RequestQuery | undefined) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The headers of a call that reads JSON (or a file) with the user's token. */
export function authorizedHeaders(token: string): Record<string, string> {
  return { Accept: "application/json", Authorization: `Bearer ${token}` };
}
