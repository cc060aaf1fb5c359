/**
 * What an emailed link's token (verify_token's answer) allows, spec 01 section 4: the payload
 * must name the user (username and id), and the activation link of an account whose password is
 * already set leads to /users/me instead of the form.
 */
import { jwtDecode } from "jwt-decode";

export type LinkKind = "activate" | "reset";
export type LinkOutcome =
  { kind: "set-password"; username: string } | { kind: "already-set" } | { kind: "unauthorized" };

/** The payload's username, when it holds a username and a numeric id; undefined otherwise. */
export function linkTokenUser(token: string): string | undefined {
  let payload: unknown;
  try {
    payload = jwtDecode(token);
  } catch {
    return undefined;
  }
  if (!payload || typeof payload !== "object") return undefined;
  const { username, id } = payload as { username?: unknown; id?: unknown };
  if (typeof username !== "string" || username === "") return undefined;
  if (typeof id !== "number" || !Number.isInteger(id)) return undefined;
  return username;
}

export function linkOutcome(link: LinkKind, answer: { token: string; hasPassword: boolean }): LinkOutcome {
  const username = linkTokenUser(answer.token);
  if (username === undefined) return { kind: "unauthorized" };
  if (answer.hasPassword && link === "activate") return { kind: "already-set" };
  return { kind: "set-password", username };
}
