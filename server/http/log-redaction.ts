/**
 * What the request log may say about a URL. Query strings carry secrets and personal data: the
 * token of an emailed link (/users/activate?token=…), a participant search (?q=…,
 * ?search_value=…), a mail address to send a consent to. Every query value is replaced, keeping
 * the parameter names (enough to tell requests apart); a visit's join secret in the path is
 * replaced too.
 */
import { redactJoinSecret } from "../visits/join-links.ts";

export const REDACTED = "[redacted]";

export function redactUrl(url: string) {
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (queryStart === -1) return redactJoinSecret(path);
  const names = url
    .slice(queryStart + 1)
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const name = pair.split("=", 1)[0] ?? "";
      // A name is a fixed word of ours; anything else in its place could be data.
      return /^[A-Za-z0-9_.[\]-]{1,40}$/.test(name) ? `${name}=${REDACTED}` : REDACTED;
    });
  return `${redactJoinSecret(path)}?${names.join("&")}`;
}

/** Fastify's `req` log serializer: method, redacted URL, address. */
export function requestLogSerializer(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}
