/**
 * Sends one outbox item to the server with the token of the user who made it and the item's id
 * as its Idempotency-Key. Used by the pages and by the service worker, so it touches neither the
 * DOM nor the signed-in user: it answers what happened and decides nothing.
 */
import type { OutboxItem } from "./outbox-item.ts";

export type SendOutcome =
  { kind: "answered"; status: number; message: string; body: unknown } | { kind: "network"; message: string };

function urlOf(item: OutboxItem) {
  const search = new URLSearchParams(item.request.query ?? {}).toString();
  return search ? `${item.request.path}?${search}` : item.request.path;
}

function bodyOf(item: OutboxItem): { body?: string | FormData; contentType?: string } {
  const { body } = item.request;
  if (body.type === "empty") return {};
  if (body.type === "json") return { body: JSON.stringify(body.value), contentType: "application/json" };
  const form = new FormData();
  for (const file of body.files)
    form.append(file.field, new Blob([file.bytes], { type: file.type }), file.fileName);
  for (const [name, value] of Object.entries(body.fields)) form.append(name, value);
  // No content type: the browser sets the multipart boundary.
  return { body: form };
}

export async function sendOutboxItem(
  item: OutboxItem,
  token: string,
  fetchImpl: typeof fetch = fetch,
): Promise<SendOutcome> {
  const { body, contentType } = bodyOf(item);
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...item.request.headers,
    Authorization: `Bearer ${token}`,
    "Idempotency-Key": item.id,
  };
  if (contentType) headers["Content-Type"] = contentType;
  let response: Response;
  try {
    response = await fetchImpl(urlOf(item), { method: item.request.method, headers, body });
  } catch (error) {
    return { kind: "network", message: error instanceof Error ? error.message : String(error) };
  }
  const text = await response.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  const serverMessage =
    parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
      ? (parsed as { message: string }).message
      : undefined;
  return {
    kind: "answered",
    status: response.status,
    message: serverMessage ?? `${response.status} ${response.statusText}`.trim(),
    body: parsed,
  };
}
