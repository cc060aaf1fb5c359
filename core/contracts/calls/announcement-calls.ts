/**
 * The inbox's calls (spec 02 section 7): the signed-in user's announcements, writing one
 * (coordinators and administrators), and dismissing an onboarding card. Marking one read is its
 * read event, sent through the events call (instrument-calls.ts).
 */
import * as z from "zod/mini";
import {
  announcement,
  announcementInstrumentsQuery,
  announcementInstrumentsResponse,
  announcementsResponse,
  postAnnouncementRequest,
} from "../announcements.ts";
import { onboardingParams, onboardingResponse } from "../onboarding.ts";
import { defineCall } from "../http/define-call.ts";
import { IDEMPOTENT_REFUSALS, REFUSALS, SIGNED_OUT } from "./common-answers.ts";

export const listAnnouncementsCall = defineCall({
  operationId: "listAnnouncements",
  tag: "Announcements",
  scope: "own",
  method: "GET",
  path: "/control/participants/me/announcements",
  summary: "The announcements of the studies and sites the user holds a permission in, newest first",
  answers: { 200: announcementsResponse, ...SIGNED_OUT },
});

export const postAnnouncementCall = defineCall({
  operationId: "postAnnouncement",
  tag: "Announcements",
  scope: "site",
  method: "POST",
  path: "/control/announcements",
  summary: "Send an announcement to a study's staff, or one site's (coordinators and administrators)",
  body: postAnnouncementRequest,
  idempotent: true,
  answers: {
    201: announcement.check(
      z.describe("Stored, its HTML sanitised (a repeated Idempotency-Key is answered from the record)"),
    ),
    ...IDEMPOTENT_REFUSALS,
  },
});

export const dismissOnboardingCall = defineCall({
  operationId: "dismissOnboarding",
  tag: "Announcements",
  scope: "own",
  method: "PUT",
  path: "/control/clinro/users/me/onboarding/{kind}",
  summary: "Dismiss one onboarding card (activities or announcements) for good",
  params: onboardingParams,
  answers: { 200: onboardingResponse, ...REFUSALS },
});

export const listAnnouncementInstrumentsCall = defineCall({
  operationId: "listAnnouncementInstruments",
  tag: "Announcements",
  scope: "study",
  method: "GET",
  path: "/control/clinro/me/announcement_instruments",
  summary:
    "A study's ANNOUNCEMENT instruments delivered at the user's sites, newest first, with the user's read state",
  query: announcementInstrumentsQuery,
  answers: { 200: announcementInstrumentsResponse, ...REFUSALS },
});
