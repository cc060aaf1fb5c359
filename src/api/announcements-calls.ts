/**
 * The inbox's requests with their answers' schemas (core/contracts/calls/announcement-calls.ts).
 * Loaded on demand by announcements-api.ts: the navigation bar's unread dot is on every page,
 * the announcements' schemas need not be in the first download.
 */
import { msg } from "@lingui/core/macro";
import {
  announcement,
  announcementInstrumentsResponse,
  announcementsResponse,
  type PostAnnouncementRequest,
} from "../../core/contracts/announcements.ts";
import {
  dismissOnboardingCall,
  listAnnouncementInstrumentsCall,
  listAnnouncementsCall,
  postAnnouncementCall,
} from "../../core/contracts/calls/announcement-calls.ts";
import { callPath } from "../../core/contracts/http/define-call.ts";
import { onboardingResponse, type OnboardingKind } from "../../core/contracts/onboarding.ts";
import { request } from "./request.ts";

/** GET /control/participants/me/announcements */
export function fetchAnnouncements(signal?: AbortSignal) {
  return request({
    path: listAnnouncementsCall.path,
    schema: announcementsResponse,
    failMessage: msg({ id: "inbox_fetch_failed", message: "Could not fetch your announcements" }),
    signal,
  });
}

/** GET /control/clinro/me/announcement_instruments?study_id: the newer architecture's announcements. */
export function fetchAnnouncementInstruments(studyId: number, signal?: AbortSignal) {
  return request({
    path: listAnnouncementInstrumentsCall.path,
    query: { study_id: String(studyId) },
    schema: announcementInstrumentsResponse,
    failMessage: msg({ id: "inbox_fetch_failed", message: "Could not fetch your announcements" }),
    // A study no longer the user's: the inbox says it could not load, the session goes on.
    handle403Locally: true,
    signal,
  });
}

/**
 * POST /control/announcements. One Idempotency-Key per announcement written (the caller keeps
 * it across retries of the same text). Refusals (400, 403) are the form's to show: no toast, and
 * a 403 does not sign the user out (it means "not this study", not an ended session).
 */
export function postAnnouncement(body: PostAnnouncementRequest, idempotencyKey: string) {
  return request({
    path: postAnnouncementCall.path,
    method: postAnnouncementCall.method,
    body,
    headers: { "Idempotency-Key": idempotencyKey },
    schema: announcement,
    suppressErrorToast: true,
    handle403Locally: true,
    loaderKey: "announcement-send",
  });
}

/** PUT /control/clinro/users/me/onboarding/{kind} */
export function dismissOnboarding(kind: OnboardingKind) {
  return request({
    path: callPath(dismissOnboardingCall, { kind }),
    method: dismissOnboardingCall.method,
    schema: onboardingResponse,
  });
}
