/**
 * Virtual visits end to end, in Chromium with a fake camera and microphone: the
 * visits page and its mail fallback, a clinician and a participant holding a visit over the
 * built-in video service (two browser contexts), the room's controls, the minimised container,
 * hanging up, the recorded toast, and the permission-denied box.
 */
import { type Browser, type Page } from "@playwright/test";
import { expect, expectNoPolicyViolations, test, watchContentSecurityPolicy } from "./support/test.ts";
import config from "../../playwright.config.ts";
import { groupVisits, type VisitSectionKey } from "../../src/features/visits/visit-groups.ts";
import type { Visit } from "../../core/contracts/visits.ts";
import { signedInWithKeptSession } from "./support/kept-session.ts";
import { StudyNav } from "./pages/participant-pages.ts";
import {
  JoinPage,
  VISITS_SITE_ID,
  VISITS_STUDY_ID,
  VideoRoom,
  VisitsPage,
  apiToken,
  scheduleVisit,
} from "./pages/visit-pages.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { screenshotAtSizes } from "./support/screenshots.ts";
import { COORDINATOR, DEMO_PASSWORD } from "./support/demo.ts";

const FAKE_MEDIA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"];
const baseLaunch = config.projects?.[0]?.use?.launchOptions ?? {};
// The project's browser and flags, plus a fake camera and microphone that are always allowed.
test.use({ launchOptions: { ...baseLaunch, args: [...(baseLaunch.args ?? []), ...FAKE_MEDIA] } });
// Two pages exchanging video on two cores: more time than a page test. A safety net, not a
// speed target: beside the widget gallery's axe sweep on a loaded 2-core machine, the visit
// test's every step ran (axe took 8 s a page) and it reached 180 s at its hang-up. The tests of
// this file run one after another: the listing test compares the page with the visits call, and a visit
// another test schedules in between would differ (it did, at 23:23 on a busy CI machine).
test.describe.configure({ mode: "default", timeout: 360_000 });

const screenshots = (page: Page, name: string) =>
  screenshotAtSizes(page, "visits", name, { fullPage: false });

async function signedInClinician(page: Page) {
  await signedInWithKeptSession(page, COORDINATOR, DEMO_PASSWORD);
}

/** A second browser context for the participant, with the same fake devices. */
async function participantPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  await watchContentSecurityPolicy(context);
  return { context, page: await context.newPage() };
}

test("the visits page: sections, rows, the recording marker and the mail fallback", async ({
  page,
  request,
}) => {
  await signedInClinician(page);
  await page.goto(`/studies/${VISITS_STUDY_ID}/sites/${VISITS_SITE_ID}/search`);
  // The Virtual visits tab of SCZ-214 no longer lands on "Page not found".
  await new StudyNav(page).tab("Virtual visits").click();
  const visitsPage = new VisitsPage(page);
  await expect(visitsPage.heading()).toBeVisible();
  await expect(page).toHaveURL(/\/studies\/102\/sites\/1021\/visits$/);

  // The sections and their rows are the grouping model's, on the browser's clock and time zone.
  const token = await apiToken(request, COORDINATOR);
  const answer = await request.get(
    `/control/studies/${VISITS_STUDY_ID}/sites/${VISITS_SITE_ID}/clinro_visits`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  const { visits } = (await answer.json()) as { visits: Visit[] };
  const { now, timeZone } = await page.evaluate(() => ({
    now: Date.now(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }));
  const titles: Record<VisitSectionKey, string> = {
    next: "Next",
    today: "Today",
    laterThisWeek: "Later this week",
    future: "Future virtual visits",
  };
  const expected = groupVisits(visits, new Date(now), timeZone).filter((section) => section.visits.length);
  expect(expected[0]?.key).toBe("next");
  await expect(visitsPage.sectionHeadings()).toHaveText(expected.map((section) => titles[section.key]));
  for (const section of expected) {
    await expect(visitsPage.section(titles[section.key]).getByRole("listitem")).toHaveText(
      section.visits.map((visit) => new RegExp(`${visit.lname}, ${visit.fname}`)),
    );
  }
  // Next is shown once: its visit is not repeated under its day.
  const next = expected[0]!.visits[0]!;
  await expect(
    visitsPage.row(`${next.lname}, ${next.fname}`).filter({ hasText: /\d\d:\d\d to \d\d:\d\d/ }),
  ).toHaveCount(visits.filter((visit) => visit.participant_id === next.participant_id).length);

  // Each row: the names link to the participant; 'Today' or DD-MMM-YYYY; start to start + duration.
  const firstRow = visitsPage.section("Next").getByRole("listitem");
  await expect(firstRow.getByRole("link", { name: `${next.lname}, ${next.fname}` })).toHaveAttribute(
    "href",
    `/studies/102/sites/1021/participants/${next.participant_id}`,
  );
  await expect(firstRow).toContainText(/(Today|\d\d-[A-Z][a-z]{2}-\d{4}) \d\d:\d\d to \d\d:\d\d/);
  await expect(visitsPage.startButton(firstRow)).toBeEnabled();

  // The recorded visit carries the marker; the visit without a room offers a pre-filled mail.
  const recorded = visits.find((visit) => visit.is_recorded)!;
  await expect(visitsPage.row(`${recorded.lname}, ${recorded.fname}`).getByText("Recorded")).toBeVisible();
  const withoutRoom = visits.find((visit) => visit.token === null && !visit.is_adhoc)!;
  const mailRow = visitsPage.row(`${withoutRoom.lname}, ${withoutRoom.fname}`);
  await expect(visitsPage.startButton(mailRow)).toHaveCount(0);
  const href = await visitsPage.mailAction(mailRow).getAttribute("href");
  const mail = new URL(href ?? "");
  expect(mail.protocol).toBe("mailto:");
  expect(decodeURIComponent(mail.pathname)).toBe(withoutRoom.participant_email);
  expect(mail.searchParams.get("subject")).toMatch(
    /^Virtual visit on \d\d-[A-Z][a-z]{2}-\d{4} at \d\d:\d\d$/,
  );
  expect(mail.searchParams.get("body")).toContain(`Dear ${withoutRoom.fname} ${withoutRoom.lname},`);
  // The ad hoc visit opens the room like a visit with a token.
  const adhoc = visits.find((visit) => visit.is_adhoc)!;
  await expect(
    visitsPage.startButton(visitsPage.row(`${adhoc.lname}, ${adhoc.fname}`)).first(),
  ).toBeVisible();

  await expectNoSeriousViolations(page);
  await screenshots(page, "visits-page");
});

test("a clinician and a participant hold a visit: video both ways, controls, minimise, hang up", async ({
  page,
  browser,
  request,
}) => {
  const token = await apiToken(request, COORDINATOR);
  const { visit, joinLink } = await scheduleVisit(request, token, { participantId: 93, recorded: true });
  const name = `${visit.lname}, ${visit.fname}`;

  await signedInClinician(page);
  const visitsPage = new VisitsPage(page);
  await visitsPage.goto();
  const row = visitsPage.row(name);
  await visitsPage.startButton(row).click();
  await expect(page).toHaveURL(new RegExp(`/visits/${visit.room_name}$`));
  const room = new VideoRoom(page);
  await expect(room.region()).toBeVisible();
  await expect(room.recordingLabel()).toHaveText("This visit will be recorded");
  // Whom the visit is with, and the call's elapsed time.
  await expect(room.region().getByText(`Visit with ${visit.fname} ${visit.lname}`)).toBeVisible();
  await expect(room.region().locator("time")).toHaveText(/^\d+:\d\d$/);
  // The 'upcoming visits' back link, and every row's button disabled while the room is open.
  await expect(new StudyNav(page).backLink("Upcoming visits")).toBeVisible();
  await expect(visitsPage.startButton(row)).toBeDisabled();
  // The microphone starts muted, the camera on: those are the tracks the connection sends.
  await expect(room.button("Unmute")).toBeVisible();
  await expect(room.button("Camera off")).toBeVisible();
  await expect(room.localVideo()).toBeVisible();

  // The participant joins from the mailed link, in another browser context.
  const participant = await participantPage(browser);
  try {
    const join = new JoinPage(participant.page);
    await participant.page.goto(joinLink);
    await expect(join.heading()).toBeVisible();
    await expect(participant.page.getByText("This visit is recorded.")).toBeVisible();
    await expectNoSeriousViolations(participant.page);
    await join.joinButton().click();
    const participantRoom = new VideoRoom(participant.page);

    // Each side receives the other's video.
    await expect.poll(() => room.remoteVideoWidth(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => participantRoom.remoteVideoWidth(), { timeout: 30_000 }).toBeGreaterThan(0);
    // Local video goes picture-in-picture once the other side is there, and the visit is recording.
    await expect(room.localVideo()).toHaveClass(/video-stream--pip/);
    await expect(room.recordingLabel()).toHaveText("Recording");
    await expect
      .poll(() => room.senders())
      .toEqual(
        expect.arrayContaining([
          { kind: "audio", enabled: false },
          { kind: "video", enabled: true },
        ]),
      );
    await expectNoSeriousViolations(page);
    await expectNoSeriousViolations(participant.page);
    await screenshots(page, "room-expanded");
    await screenshots(participant.page, "join-page-in-visit");

    // Mute and camera off change the sent tracks.
    await room.button("Unmute").click();
    await expect(room.button("Mute")).toBeVisible();
    await expect.poll(() => room.senders()).toContainEqual({ kind: "audio", enabled: true });
    await room.button("Camera off").click();
    await expect(room.button("Camera on")).toBeVisible();
    await expect.poll(() => room.senders()).toContainEqual({ kind: "video", enabled: false });
    await room.button("Camera on").click();
    await expect.poll(() => room.senders()).toContainEqual({ kind: "video", enabled: true });
    await participantRoom.button("Mute").click();
    await expect.poll(() => participantRoom.senders()).toContainEqual({ kind: "audio", enabled: false });

    // A click outside the room minimises it.
    await page.mouse.click(8, 400);
    await expect(room.container()).toHaveClass(/video-container--minimized/);
    await expect(room.button("Expand")).toBeVisible();
    // Minimised, each control is still a finger's target.
    for (const name of ["Expand", "Hang up"]) {
      const target = await room.button(name).boundingBox();
      expect(target?.width).toBeGreaterThanOrEqual(44);
      expect(target?.height).toBeGreaterThanOrEqual(44);
    }
    const start = await room.box();
    expect(start.width / start.height).toBeCloseTo(16 / 9, 1);
    // Bottom right at first; on a phone-sized viewport it moves back inside.
    expect(start.x + start.width).toBeCloseTo(1024 - 16, 0);
    await screenshots(page, "room-minimized");
    await page.setViewportSize({ width: 390, height: 844 });
    const onPhone = await room.box();
    expect(onPhone.x).toBeGreaterThanOrEqual(0);
    expect(onPhone.x + onPhone.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1024, height: 768 });
    const placed = await room.box();

    // Dragged with the mouse (grabbed a third of the way down, clear of the buttons)...
    const grab = { x: placed.x + placed.width / 2, y: placed.y + placed.height / 3 };
    const target = { x: 400, y: 300 };
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x + target.x - placed.x, grab.y + target.y - placed.y, { steps: 5 });
    await page.mouse.up();
    const dragged = await room.box();
    expect(dragged.x).toBeCloseTo(target.x, 0);
    expect(dragged.y).toBeCloseTo(target.y, 0);
    // ...and with the keyboard.
    await room.container().focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowUp");
    const moved = await room.box();
    expect(moved.x).toBeCloseTo(dragged.x - 10, 0);
    expect(moved.y).toBeCloseTo(dragged.y - 10, 0);
    // Resized from the top-left handle: the aspect ratio stays, and never below 200 px wide.
    const handle = await room.resizeHandle().boundingBox();
    await page.mouse.move(handle!.x + 5, handle!.y + 5);
    await page.mouse.down();
    await page.mouse.move(handle!.x + 5 - 100, handle!.y + 5, { steps: 5 });
    await page.mouse.up();
    const larger = await room.box();
    expect(larger.width).toBeCloseTo(moved.width + 100, 0);
    expect(larger.width / larger.height).toBeCloseTo(16 / 9, 1);
    const handleNow = await room.resizeHandle().boundingBox();
    await page.mouse.move(handleNow!.x + 5, handleNow!.y + 5);
    await page.mouse.down();
    await page.mouse.move(handleNow!.x + 800, handleNow!.y + 5, { steps: 5 });
    await page.mouse.up();
    const smallest = await room.box();
    expect(smallest.width).toBeCloseTo(200, 0);
    expect(smallest.width / smallest.height).toBeCloseTo(16 / 9, 1);
    await page.keyboard.press("+");
    expect((await room.box()).width).toBeCloseTo(210, 0);

    // The room stays open while the clinician moves to another page.
    await new StudyNav(page).tab("Participants").click();
    await expect(page.getByRole("heading", { level: 1, name: "Search participant" })).toBeVisible();
    await expect(room.container()).toBeVisible();
    await expect.poll(() => room.remoteVideoWidth()).toBeGreaterThan(0);
    await room.button("Expand").click();
    await expect(room.container()).toHaveClass(/video-container--full/);

    // Hang up closes both sides; the recorded visit's toast shows.
    await room.button("Hang up").click();
    await expect(room.region()).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "This visit was recorded." })).toBeVisible();
    await expect(participant.page.getByText("The clinician ended the visit.")).toBeVisible();
    await expect(participantRoom.remoteVideo()).toHaveCount(0);
    // Every row's button is enabled again.
    await visitsPage.goto();
    await expect(visitsPage.startButton(row)).toBeEnabled();
    expectNoPolicyViolations(participant.context);
  } finally {
    await participant.context.close();
  }
});

test("the permission-denied box when the camera is refused", async ({ browser, request }) => {
  const token = await apiToken(request, COORDINATOR);
  const { visit, joinLink } = await scheduleVisit(request, token, { participantId: 95 });
  // A context whose camera and microphone are refused, as when the person says no.
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  await watchContentSecurityPolicy(context);
  await context.grantPermissions([]);
  await context.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  try {
    const page = await context.newPage();
    await signedInClinician(page);
    await page.goto(`/studies/${VISITS_STUDY_ID}/sites/${VISITS_SITE_ID}/visits/${visit.room_name}`);
    const room = new VideoRoom(page);
    await expect(room.permissionBox()).toBeVisible();
    await expect(room.permissionBox()).toContainText("Allow this site to use the camera and the microphone");
    await expectNoSeriousViolations(page);
    await screenshots(page, "room-permission-denied");
    await room.button("Hang up").click();
    await expect(room.region()).toHaveCount(0);
    // The row's button opens the room again, though the address is already the room's.
    const visitsPage = new VisitsPage(page);
    await visitsPage.startButton(visitsPage.row(`${visit.lname}, ${visit.fname}`)).click();
    await expect(room.permissionBox()).toBeVisible();
    await room.button("Hang up").click();
    await expect(room.region()).toHaveCount(0);

    // The participant's page says the same.
    await page.goto(joinLink);
    await new JoinPage(page).joinButton().click();
    await expect(room.permissionBox()).toBeVisible();
    expectNoPolicyViolations(context);
  } finally {
    await context.close();
  }
});

test("the join page explains an unknown link", async ({ page }) => {
  await page.goto(`/join/${"A".repeat(43)}`);
  const join = new JoinPage(page);
  await expect(join.heading("This visit link is not valid")).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("Check that you opened the whole link from the email.");
  await expect(page.getByRole("navigation")).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await screenshots(page, "join-page-unknown-link");
});

test("the join page before joining", async ({ page, request }) => {
  const token = await apiToken(request, COORDINATOR);
  const { joinLink } = await scheduleVisit(request, token, { participantId: 103 });
  await page.goto(joinLink);
  const join = new JoinPage(page);
  await expect(join.joinButton()).toBeVisible();
  await expect(page.getByText(/SCZ-214.*\(60 minutes\)/)).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshots(page, "join-page");
});

test("a room whose validation fails still opens, and says it could not connect", async ({ page }) => {
  await signedInClinician(page);
  // No visit has this room: validate_room refuses, the room opens with no token, the
  // signalling refuses the ticket, and the box says what to do.
  await page.goto(`/studies/${VISITS_STUDY_ID}/sites/${VISITS_SITE_ID}/visits/visit-not-a-room-000`);
  const room = new VideoRoom(page);
  await expect(room.region()).toBeVisible();
  await expect(
    page.getByRole("alert").filter({ hasText: "The video visit could not connect" }),
  ).toBeVisible();
  await expect(room.recordingLabel()).toHaveCount(0);
  await room.button("Hang up").click();
  await expect(room.region()).toHaveCount(0);
});
