/**
 * The error catalogue of spec 01 section 8 as message descriptors, and the rule that picks the
 * text of a failed request. Plain data: the toaster translates when it renders.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { TOAST_ERROR_MS, TOAST_SESSION_MS, type ToastText } from "../widgets/toast/toast-store.ts";

export const statusMessages: Partial<Record<number, MessageDescriptor>> = {
  401: msg({ id: "error_401", message: "Authorization required, please login to continue." }),
  // Spec 01 section 8 reads a 403 as "consent required"; this server answers 403 only for what
  // the user lacks (a study, a site, a record, an action), so it says that.
  403: msg({ id: "error_403", message: "You don't have access to this." }),
  404: msg({ id: "error_404", message: "Page or resource not found." }),
  500: msg({
    id: "error_500",
    message: "The server is experiencing technical difficulties. Please try again later.",
  }),
};

export const sessionExpiredMessage = msg({
  id: "error_session_expired",
  message: "Session has expired, please login again to continue.",
});

/** How long the toast of a failed request stays: an ended session (401) longer than the rest. */
export function failureToastDuration(status: number) {
  return status === 401 ? TOAST_SESSION_MS : TOAST_ERROR_MS;
}

export type FailureFacts = {
  status: number;
  statusText: string;
  serverMessage?: string;
  failMessage?: MessageDescriptor;
};

/**
 * Message precedence: the caller's failMessage, then the default text for the status, then the
 * server's message field, then '<status> Error: <status text>.'.
 */
export function failureMessage({ status, statusText, serverMessage, failMessage }: FailureFacts): ToastText {
  if (failMessage) return failMessage;
  const byStatus = statusMessages[status];
  if (byStatus) return byStatus;
  if (serverMessage) return serverMessage;
  return msg({ id: "error_status_generic", message: `${status} Error: ${statusText}.` });
}

const loginMessages: Partial<Record<number, MessageDescriptor>> = {
  400: msg({ id: "error_login_400", message: "Your username or password is incorrect. Please try again." }),
  403: msg({
    id: "error_login_403",
    message: "This account has been deactivated. Ask your administrator to reactivate it.",
  }),
  429: msg({
    id: "error_login_429",
    message: "Too many sign-in attempts. Please wait a few minutes and try again.",
  }),
  500: msg({
    id: "error_login_500",
    message: "Something went wrong on our server. Please try again later.",
  }),
};

/**
 * Why the server refused a token it had issued, by the code of its 401 (server/auth/
 * authenticate.ts): the sign-in page says it. Undefined for a 401 without one of these codes.
 */
export function refusedTokenMessage(body: unknown): MessageDescriptor | undefined {
  const code = body && typeof body === "object" ? (body as { code?: unknown }).code : undefined;
  switch (code) {
    case "token_revoked":
      return msg({
        id: "error_401_token_revoked",
        message:
          "Your session was closed on the server (signed out elsewhere or by an administrator). Sign in again to continue.",
      });
    case "user_deactivated":
      return loginMessages[403];
    case "token_invalid":
      return msg({
        id: "error_401_token_invalid",
        message:
          "Your session is no longer valid (your password was changed, or the session ended). Sign in again to continue.",
      });
    default:
      return undefined;
  }
}

/** Login failures are looked up as error_login_{status}; an unknown status reads as 400. */
export function loginFailureMessage(status: number): MessageDescriptor {
  return loginMessages[status] ?? (loginMessages[400] as MessageDescriptor);
}

export const loginNetworkMessage = msg({
  id: "error_login_network",
  message: "There was a problem logging in, please try again later.",
});
