import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { Visit } from "../../../core/contracts/visits.ts";
import { mailsTo } from "../../support/mail-drop.ts";
import { DEMO_PASSWORD } from "../support/demo.ts";
import { E2E_DATA_DIR } from "../support/e2e-dirs.ts";

/** SCZ-214 at the Remote Visits Hub: the demo's study and site with virtual visits. */
export const VISITS_STUDY_ID = 102;
export const VISITS_SITE_ID = 1021;

/** The virtual visits page: /studies/{studyId}/sites/{siteId}/visits. */
export class VisitsPage {
  constructor(private readonly page: Page) {}

  readonly heading = () => this.page.getByRole("heading", { level: 1, name: "Virtual visits" });
  readonly sectionHeadings = () => this.page.locator("main").getByRole("heading", { level: 2 });
  readonly section = (name: string) => this.page.getByRole("region", { name, exact: true });
  /** A visit's row, by "Lastname, Firstname". */
  readonly row = (name: string) => this.page.getByRole("listitem").filter({ hasText: name });
  readonly startButton = (row: Locator) => row.getByRole("button", { name: "Start video visit" });
  readonly mailAction = (row: Locator) => row.getByRole("link", { name: "Email participant" });

  async goto(studyId = VISITS_STUDY_ID, siteId = VISITS_SITE_ID) {
    await this.page.goto(`/studies/${studyId}/sites/${siteId}/visits`);
    await expect(this.heading()).toBeVisible();
  }
}

/** The clinician's video room (the global overlay) or the participant's room on the join page. */
export class VideoRoom {
  constructor(private readonly page: Page) {}

  readonly region = () => this.page.getByRole("region", { name: "Video visit" });
  readonly container = () => this.page.getByTestId("video-container");
  readonly resizeHandle = () => this.page.getByTestId("video-container-resize");
  readonly remoteVideo = () => this.page.getByTestId("remote-video");
  readonly localVideo = () => this.page.getByTestId("local-video");
  readonly button = (name: string) =>
    this.page.getByRole("toolbar", { name: "Call controls" }).getByRole("button", { name, exact: true });
  /** Before the participant joins the room says the visit will be recorded; then, Recording. */
  readonly recordingLabel = () => this.region().getByText(/^(Recording|This visit will be recorded)$/);
  readonly permissionBox = () =>
    this.page.getByRole("alert").filter({ hasText: "Camera and microphone are blocked" });

  /** The remote video's decoded width: above 0 once the other side's frames arrive. */
  remoteVideoWidth() {
    return this.remoteVideo().evaluate((video: HTMLVideoElement) => video.videoWidth);
  }

  /** The built-in service's sent tracks (its test hook): kind and enabled. */
  senders() {
    return this.page.evaluate(() => {
      const hook = (globalThis as { __clinroVisitSenders?: () => { kind: string; enabled: boolean }[] })
        .__clinroVisitSenders;
      return (hook?.() ?? []).map(({ kind, enabled }) => ({ kind, enabled }));
    });
  }

  async box() {
    const box = await this.container().boundingBox();
    if (!box) throw new Error("The video container is not shown");
    return box;
  }
}

/** The participant's join page: /join/{secret}. */
export class JoinPage {
  constructor(private readonly page: Page) {}

  readonly heading = (name: string | RegExp = "Video visit") =>
    this.page.getByRole("heading", { level: 1, name });
  readonly joinButton = () => this.page.getByRole("button", { name: "Join the visit" });
}

/** Signs in through the API and answers the bearer token. */
export async function apiToken(request: APIRequestContext, username: string) {
  const answer = await request.post("/control/clinro/login", { data: { username, password: DEMO_PASSWORD } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

/**
 * Schedules a visit as the coordinator (POST clinro_visits) starting `startsInMin` from now,
 * and reads the participant's join link from the mail drop.
 */
export async function scheduleVisit(
  request: APIRequestContext,
  token: string,
  options: { participantId: number; startsInMin?: number; minutes?: number; recorded?: boolean },
): Promise<{ visit: Visit; joinLink: string }> {
  const answer = await request.post(
    `/control/studies/${VISITS_STUDY_ID}/sites/${VISITS_SITE_ID}/clinro_visits`,
    {
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() },
      data: {
        participant_id: options.participantId,
        visit_time: new Date(Date.now() + (options.startsInMin ?? -5) * 60_000).toISOString(),
        visit_duration: options.minutes ?? 60,
        is_recorded: options.recorded ?? false,
        is_adhoc: false,
      },
    },
  );
  expect(answer.status()).toBe(201);
  const visit = (await answer.json()) as Visit;
  expect(visit.participant_email).not.toBe("");
  let joinLink = "";
  await expect
    .poll(async () => {
      const mails = await mailsTo(E2E_DATA_DIR, visit.participant_email);
      joinLink = mails.flatMap((mail) => mail.links).findLast((link) => link.includes("/join/")) ?? "";
      return joinLink;
    })
    .toContain("/join/");
  return { visit, joinLink: new URL(joinLink).pathname };
}
