/**
 * The one door to the API (spec 01 section 7, "Shared request behaviour"): token and headers,
 * JSON or blob answers, the error catalogue with its toasts, logout on 401, logout before a
 * request whose token is missing or expired, and the optional loaders. A 401 to a request that
 * carried the token always ends the session: the server no longer accepts it, and a session kept
 * with a refused token only goes on showing what it loaded before. A 403 never ends it: this
 * server answers 403 for a study, site, record or action the user lacks (never for the session
 * itself, which is a 401), so it is shown where it happened.
 * No component calls fetch; every typed call in src/api goes through here.
 */
import type { MessageDescriptor } from "@lingui/core";
import * as z from "zod/mini";
import "../../core/contracts/zod-messages.ts";
import { logout } from "../auth/logout.ts";
import { getStoredUser, isTokenExpired } from "../auth/session-store.ts";
import { endRefusedSession } from "../auth/refused-session.ts";
import { startLoading, stopLoading } from "../widgets/loading/loading-store.ts";
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS, showToast, type ToastText } from "../widgets/toast/toast-store.ts";
import { authorizedHeaders, buildUrl, type RequestQuery } from "./request-url.ts";
import {
  failureMessage,
  failureToastDuration,
  sessionExpiredMessage,
  statusMessages,
} from "./error-messages.ts";

export type RequestOptions<T> = {
  path: string;
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: RequestQuery;
  /** A plain value is sent as JSON; FormData as multipart, without a content type. */
  body?: unknown;
  headers?: Record<string, string>;
  /** false for the calls the spec marks 'no auth'. */
  auth?: boolean;
  /** Validates a JSON answer. */
  schema?: z.core.$ZodType<T>;
  /**
   * 'auto' reads JSON as JSON and anything else (zip, pdf, images) as a blob; 'raw' keeps a JSON
   * answer as its text, for a caller that parses it itself (and hashes the very bytes).
   */
  responseType?: "auto" | "raw" | "json" | "blob";
  successMessage?: MessageDescriptor;
  failMessage?: MessageDescriptor;
  /** Shown for 2 seconds when the network fails. */
  catchMessage?: MessageDescriptor;
  suppressErrorToast?: boolean;
  /** The caller shows this call's 403 itself (its access-denied panel): no toast. */
  handle403Locally?: boolean;
  loader?: boolean;
  loaderKey?: string;
  onFail?: (error: ApiError) => void;
  signal?: AbortSignal;
  /** Given the headers of a successful answer (the sign-in reads the server's Date). */
  onHeaders?: (headers: Headers) => void;
  /**
   * The same call, already sent (the early definition download of early-definition.ts): its
   * response is read here as if this module had fetched it, under every rule above.
   */
  sent?: Promise<Response>;
};

/** The server answered, but not with a 2xx. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly displayMessage: ToastText,
    readonly body: unknown,
  ) {
    super(`${status} ${statusText}`);
    this.name = "ApiError";
  }
}

/** The request never got an answer. */
export class NetworkError extends Error {
  constructor(override readonly cause: unknown) {
    super("Network request failed");
    this.name = "NetworkError";
  }
}

/** No usable token: the user was signed out before anything was sent. */
export class SessionEndedError extends Error {
  constructor() {
    super("Signed out before the request");
    this.name = "SessionEndedError";
  }
}

function bearerToken(): string {
  const user = getStoredUser();
  if (!user) {
    logout(statusMessages[401]);
    throw new SessionEndedError();
  }
  if (isTokenExpired(user)) {
    logout(sessionExpiredMessage);
    throw new SessionEndedError();
  }
  return user.token;
}

async function readBody(response: Response, responseType: RequestOptions<unknown>["responseType"]) {
  if (response.status === 204) return undefined;
  const contentType = response.headers.get("content-type") ?? "";
  const isJson = contentType.includes("application/json");
  if (responseType === "blob" || (responseType !== "json" && !isJson)) return response.blob();
  const text = await response.text();
  if (responseType === "raw") return text;
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function readServerMessage(response: Response): Promise<{ body: unknown; message?: string }> {
  try {
    const body: unknown = await response.clone().json();
    const message =
      body && typeof body === "object" && typeof (body as { message?: unknown }).message === "string"
        ? (body as { message: string }).message
        : undefined;
    return { body, message };
  } catch {
    return { body: undefined };
  }
}

export async function request<T = unknown>(options: RequestOptions<T>): Promise<T> {
  // The caller's headers go over Accept, never over the token (the early script sends the same).
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.auth ?? true) headers.Authorization = authorizedHeaders(bearerToken()).Authorization!;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    // The browser sets the multipart boundary itself.
    body = options.body;
  } else if (options.body !== undefined) {
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
      headers["Content-Type"] = "application/json";
    }
    body = JSON.stringify(options.body);
  }

  if (options.loader) startLoading();
  if (options.loaderKey) startLoading(options.loaderKey);
  let response: Response;
  try {
    response = await (options.sent ??
      fetch(buildUrl(options.path, options.query), {
        method: options.method ?? "GET",
        headers,
        body,
        signal: options.signal,
      }));
  } catch (cause) {
    if (options.catchMessage) showToast(options.catchMessage, "error", TOAST_ERROR_MS);
    throw new NetworkError(cause);
  } finally {
    if (options.loader) stopLoading();
    if (options.loaderKey) stopLoading(options.loaderKey);
  }

  if (!response.ok) {
    const { body: errorBody, message: serverMessage } = await readServerMessage(response);
    const displayMessage = failureMessage({
      status: response.status,
      statusText: response.statusText,
      serverMessage,
      failMessage: options.failMessage,
    });
    const error = new ApiError(response.status, response.statusText, displayMessage, errorBody);
    const handledByCaller = response.status === 403 && options.handle403Locally === true;
    // A public call's 401 says nothing of the session: it was sent without the token.
    const tokenRefused = response.status === 401 && (options.auth ?? true);
    if (tokenRefused) {
      endRefusedSession(errorBody);
    } else if (!options.suppressErrorToast && !handledByCaller) {
      showToast(displayMessage, "error", failureToastDuration(response.status));
    }
    options.onFail?.(error);
    throw error;
  }

  options.onHeaders?.(response.headers);
  const data = await readBody(response, options.responseType);
  if (options.successMessage) showToast(options.successMessage, "success", TOAST_SUCCESS_MS);
  return (options.schema ? z.parse(options.schema, data) : data) as T;
}
