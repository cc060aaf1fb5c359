/**
 * One try of a staff signer's password at a signature (21 CFR 11.200 and 11.300(d);
 * core/contracts/signing-attempts.ts). The password is encrypted to the signing key at once;
 * then the server checks it and records a refused try. Without an answer (offline, or a server
 * that cannot check) the device's verifier decides, and a refused try is queued in the outbox
 * for the audit trail. Every refused try is also counted on the device, before anything else is
 * asked, so that five in a row end the session whichever way they were checked, as the
 * inactivity lock's five do.
 */
import type { SigningKeyResponse } from "../../core/contracts/signing-key.ts";
import {
  MAX_SIGNING_ATTEMPTS,
  type SigningPasswordCheckBody,
  type SigningRefusalReport,
} from "../../core/contracts/signing-attempts.ts";
import type { UserSignerRole } from "../../core/contracts/roles.ts";
import { checkSigningPasswordOnServer, type ServerSigningCheck } from "../api/signing-password-api.ts";
import { fetchSigningKey } from "../api/signing-key-api.ts";
import { queueSigningRefusal } from "../outbox/signing-refusals.ts";
import { isoWithOffset } from "../survey/questions/consent-signature-model.ts";
import { getStoredUser } from "./session-store.ts";
import {
  checkVerifier,
  clearSigningRefusals,
  countSigningRefusal,
  deviceSigningKey,
  encryptToSigningKey,
  loadVerifier,
  makeVerifier,
  saveVerifier,
  signingRefusalCount,
} from "./signing-verifier.ts";

export type SigningAttempt =
  | { ok: true; kid: string; passwordCiphertext: string }
  /** Not the password; this many tries are left before the session ends. */
  | { ok: false; reason: "wrong"; attemptsLeft: number }
  /** The session's tries are used up: the caller ends the session. */
  | { ok: false; reason: "exhausted" }
  /** No signing key on this device, and the network could not give one. */
  | { ok: false; reason: "unavailable" };

export type SigningFor = {
  userId: number;
  role: UserSignerRole;
  /** The consent and participant signed for, when the server knows them (not a provisional id). */
  consent?: { consentId: number; participantId: number };
};

export type SigningAttemptDependencies = {
  fetchKey: () => Promise<SigningKeyResponse>;
  checkOnServer: (body: SigningPasswordCheckBody) => Promise<ServerSigningCheck>;
  reportRefusal: (userId: number, report: SigningRefusalReport) => Promise<void>;
  now: () => Date;
};

/** The refused try goes with the session it was made in (signing-refusals.ts). */
async function queueRefusal(userId: number, report: SigningRefusalReport) {
  const user = getStoredUser();
  if (!user || user.id !== userId) return;
  await queueSigningRefusal(report, { userId, username: user.username, token: user.token, exp: user.exp });
}

const defaultDependencies: SigningAttemptDependencies = {
  fetchKey: () => fetchSigningKey(),
  checkOnServer: checkSigningPasswordOnServer,
  reportRefusal: queueRefusal,
  now: () => new Date(),
};

/** A password the server accepted: the device's verifier follows it (it may predate a change). */
async function keepVerifierCurrent(userId: number, password: string) {
  const verifier = await loadVerifier(userId);
  if (verifier && (await checkVerifier(password, verifier))) return;
  await saveVerifier(userId, await makeVerifier(password));
}

export async function attemptSigning(
  signing: SigningFor,
  password: string,
  dependencies: SigningAttemptDependencies = defaultDependencies,
): Promise<SigningAttempt> {
  const { userId } = signing;
  if ((await signingRefusalCount(userId)) >= MAX_SIGNING_ATTEMPTS) return { ok: false, reason: "exhausted" };
  const key = await deviceSigningKey(dependencies.fetchKey);
  if (!key) return { ok: false, reason: "unavailable" };
  const passwordCiphertext = await encryptToSigningKey(password, key);
  const context = {
    signer_role: signing.role,
    ...(signing.consent
      ? { consent_id: signing.consent.consentId, participant_id: signing.consent.participantId }
      : {}),
  };
  const accepted = async () => {
    await clearSigningRefusals(userId);
    return { ok: true as const, kid: key.kid, passwordCiphertext };
  };
  const refused = async (serverLeft = MAX_SIGNING_ATTEMPTS): Promise<SigningAttempt> => {
    const attemptsLeft = Math.min(serverLeft, MAX_SIGNING_ATTEMPTS - (await countSigningRefusal(userId)));
    return attemptsLeft > 0
      ? { ok: false, reason: "wrong", attemptsLeft }
      : { ok: false, reason: "exhausted" };
  };

  const server = await dependencies.checkOnServer({
    kid: key.kid,
    password_ciphertext: passwordCiphertext,
    ...context,
  });
  if (server.kind === "accepted") {
    void keepVerifierCurrent(userId, password).catch((error: unknown) =>
      console.error("The signing verifier could not be renewed", error),
    );
    return accepted();
  }
  if (server.kind === "refused") return refused(server.attemptsLeft);
  if (server.kind === "exhausted") {
    await countSigningRefusal(userId);
    return { ok: false, reason: "exhausted" };
  }

  // No answer: the device decides. Without a verifier (the sign-in could not make one) the
  // password goes on unchecked here: the server checks it when the consent arrives.
  const verifier = await loadVerifier(userId);
  if (!verifier || (await checkVerifier(password, verifier))) return accepted();
  const report: SigningRefusalReport = { attempted_at: isoWithOffset(dependencies.now()), ...context };
  await dependencies.reportRefusal(userId, report);
  return refused();
}
