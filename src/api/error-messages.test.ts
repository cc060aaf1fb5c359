import type { MessageDescriptor } from "@lingui/core";
import { describe, expect, it } from "vitest";
import {
  failureMessage,
  failureToastDuration,
  loginFailureMessage,
  loginNetworkMessage,
  sessionExpiredMessage,
  statusMessages,
  type FailureFacts,
} from "./error-messages.ts";

const explicit: MessageDescriptor = { id: "caller_fail_message", message: "The caller's text" };

describe("failureMessage: explicit failMessage, then the status text, then the server's message, then the generic text", () => {
  it.each<[string, FailureFacts, unknown]>([
    [
      "explicit failMessage beats the status default",
      { status: 404, statusText: "Not Found", serverMessage: "server text", failMessage: explicit },
      { id: "caller_fail_message" },
    ],
    [
      "explicit failMessage beats the server's message",
      {
        status: 422,
        statusText: "Unprocessable Entity",
        serverMessage: "server text",
        failMessage: explicit,
      },
      { id: "caller_fail_message" },
    ],
    [
      "explicit failMessage beats the generic text",
      { status: 409, statusText: "Conflict", failMessage: explicit },
      { id: "caller_fail_message" },
    ],
    [
      "401 default beats the server's message",
      { status: 401, statusText: "Unauthorized", serverMessage: "server text" },
      { id: "error_401" },
    ],
    [
      "403 default beats the server's message",
      { status: 403, statusText: "Forbidden", serverMessage: "server text" },
      { id: "error_403" },
    ],
    [
      "404 default beats the server's message",
      { status: 404, statusText: "Not Found", serverMessage: "server text" },
      { id: "error_404" },
    ],
    [
      "500 default beats the server's message",
      { status: 500, statusText: "Internal Server Error", serverMessage: "server text" },
      { id: "error_500" },
    ],
    [
      "the server's message is used for a status without a default (422)",
      { status: 422, statusText: "Unprocessable Entity", serverMessage: "phone is not valid" },
      "phone is not valid",
    ],
    [
      "the server's message is used for a status without a default (400)",
      { status: 400, statusText: "Bad Request", serverMessage: "missing field" },
      "missing field",
    ],
    [
      "the generic text when there is nothing else",
      { status: 409, statusText: "Conflict" },
      { id: "error_status_generic", values: { status: 409, statusText: "Conflict" } },
    ],
    [
      "the generic text when the server's message is empty",
      { status: 502, statusText: "Bad Gateway", serverMessage: "" },
      { id: "error_status_generic", values: { status: 502, statusText: "Bad Gateway" } },
    ],
  ])("%s", (_case, facts, expected) => {
    const message = failureMessage(facts);
    if (typeof expected === "string") expect(message).toBe(expected);
    else expect(message).toMatchObject(expected as object);
  });

  it("words the generic text as '<status> Error: <status text>.'", () => {
    const message = failureMessage({ status: 409, statusText: "Conflict" }) as MessageDescriptor;
    expect(message.message).toBe("{status} Error: {statusText}.");
  });
});

describe("error catalogue texts", () => {
  it.each([
    [401, "error_401", "Authorization required, please login to continue."],
    // Not the spec's "Consent required": a 403 here is always something the user lacks.
    [403, "error_403", "You don't have access to this."],
    [404, "error_404", "Page or resource not found."],
    [500, "error_500", "The server is experiencing technical difficulties. Please try again later."],
  ])("the default text for %i is %s: '%s'", (status, id, text) => {
    expect(statusMessages[status]).toMatchObject({ id, message: text });
  });

  it("the session-expired text is 'Session has expired, please login again to continue.'", () => {
    expect(sessionExpiredMessage).toMatchObject({
      id: "error_session_expired",
      message: "Session has expired, please login again to continue.",
    });
  });

  it("the login network failure text is 'There was a problem logging in, please try again later.'", () => {
    expect(loginNetworkMessage).toMatchObject({
      id: "error_login_network",
      message: "There was a problem logging in, please try again later.",
    });
  });
});

describe("failureToastDuration", () => {
  it.each([
    [401, 5000],
    [403, 2000],
    [400, 2000],
    [404, 2000],
    [409, 2000],
    [422, 2000],
    [500, 2000],
  ])("a failed request with status %i shows its toast for %i ms", (status, ms) => {
    expect(failureToastDuration(status)).toBe(ms);
  });
});

describe("loginFailureMessage: key error_login_{status}, default 400", () => {
  it.each([
    [400, "error_login_400"],
    [429, "error_login_429"],
    [500, "error_login_500"],
    [418, "error_login_400"],
    [503, "error_login_400"],
  ])("a login failing with %i shows %s", (status, id) => {
    expect(loginFailureMessage(status)).toMatchObject({ id });
  });

  it("the login 400 text is 'Your username or password is incorrect. Please try again.'", () => {
    expect(loginFailureMessage(400).message).toBe(
      "Your username or password is incorrect. Please try again.",
    );
  });

  it("the login 500 text says something went wrong on the server and to try again later", () => {
    expect(loginFailureMessage(500).message).toMatch(/server/i);
    expect(loginFailureMessage(500).message).toMatch(/try again later/i);
  });
});
