/**
 * The routes (code-based). Routes stay thin: a guard, then a feature component.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType, ReactElement } from "react";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  ErrorComponent,
  lazyRouteComponent,
  notFound,
  Outlet,
  useRouter,
  type ErrorComponentProps,
  redirect,
} from "@tanstack/react-router";
import {
  FORCED_CHANGE_PATH,
  redirectSignedInAwayFromLogin,
  requirePermanentPassword,
  requireSignedIn,
  safeRedirectTarget,
} from "../auth/guards.ts";
import { LoginPage } from "../features/login/login-page.tsx";
import { StudiesPage } from "../features/studies/studies-page.tsx";
import { NotFoundPage } from "../features/system/not-found-page.tsx";
import { UnauthorizedPage } from "../features/system/unauthorized-page.tsx";
import { passwordJustSet } from "../auth/password-just-set.ts";
import { OutboxReviewPage } from "../features/outbox-review/outbox-review-page.tsx";
import { outboxQuery } from "../outbox-ui/use-outbox.ts";
import { openDraftStore } from "../outbox/drafts.ts";
import { definitionBodyQuery } from "../api/survey-definition-body.ts";
import { alreadySetMessage } from "../features/password/already-set-message.ts";
import { mayListUsers } from "../features/users/user-list.ts";
import { mayWriteAnnouncements } from "../features/inbox/authoring.ts";
import { readSelection } from "../features/studies/study-selection.ts";
import { showToast, TOAST_SESSION_MS } from "../widgets/toast/toast-store.ts";
import { ROOM_NAME_PATTERN } from "../../core/contracts/room-name.ts";
import {
  PARTICIPANT_LIST_ORDERS,
  PARTICIPANT_LIST_SORTS,
  type ParticipantListOrder,
  type ParticipantListSort,
} from "../../core/contracts/participant-list-sorts.ts";
import {
  CONSENT_PARTICIPANT_STATUSES,
  type ConsentParticipantStatus,
} from "../../core/contracts/consents.ts";
import { parseRouteId, studySiteParams } from "./route-params.ts";
import { lazy, Suspense } from "react";
import { isProvisionalParticipantId } from "../outbox/provisional-participants.ts";
import { RootLayout } from "./root-layout.tsx";
import { SiteAccessGuard } from "./site-access-guard.tsx";
import { ChunkLoadFailure } from "../widgets/loading/chunk-load-failure.tsx";
import { isChunkLoadError, withChunkTimeout } from "../widgets/loading/load-chunk.ts";

/**
 * A page loaded on first visit (or when a link to it is hovered): each page's code, and what
 * only it uses (libphonenumber-js for the profile), stays out of the first download.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const loadInTime = withChunkTimeout(load);
  return lazyRouteComponent(() => loadInTime().then((module) => ({ default: pick(module) })));
}

/**
 * A page whose code did not load (120 s time-out, or a failed download) says so with a retry;
 * any other error keeps the router's own error display.
 */
function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  if (!isChunkLoadError(error)) return <ErrorComponent error={error} />;
  return (
    <div className="page page--narrow">
      <ChunkLoadFailure
        error={error}
        onRetry={() => {
          reset();
          void router.invalidate();
        }}
      />
    </div>
  );
}

export type RouterContext = {
  queryClient: QueryClient;
  /** The signed-in user's persisted queries are back in the cache (query-persistence.ts). */
  queriesRestored: () => Promise<void>;
};

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/studies" });
  },
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login",
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: safeRedirectTarget(search.redirect),
  }),
  beforeLoad: ({ search }) => redirectSignedInAwayFromLogin(search.redirect),
  component: function LoginRoute() {
    const { redirect: target } = loginRoute.useSearch();
    return <LoginPage redirectTarget={target} />;
  },
});

/** Everything below needs a signed-in user with a permanent password. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  // A page's loader reads the cache only once the device's copy is in it: offline, a request
  // made before would fail and show a page the device holds as not downloaded.
  beforeLoad: async ({ location, context }) => {
    requirePermanentPassword(location);
    await context.queriesRestored();
  },
  // A site's pages for a user who works elsewhere: the access-denied panel, still signed in.
  component: () => (
    <SiteAccessGuard>
      <Outlet />
    </SiteAccessGuard>
  ),
});

const studiesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies",
  component: StudiesPage,
});

/** The queue review page: what this device still has to send. */
const outboxRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/outbox",
  loader: ({ context }) => context.queryClient.ensureQueryData(outboxQuery()),
  // Not loaded on demand: the queue is what a clinician reviews when the network is gone.
  component: OutboxReviewPage,
});

const forcedChangeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: FORCED_CHANGE_PATH,
  beforeLoad: ({ location }) => {
    const user = requireSignedIn(location);
    // Once changed, the page stays only to show its confirmation (the new token re-runs this guard).
    if (!user.is_temporary_password && !passwordJustSet()) throw redirect({ to: "/" });
  },
  component: lazyPage(
    () => import("../features/password/forced-change-password-page.tsx"),
    (module) => module.ForcedChangePasswordPage,
  ),
});

const unauthorizedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/unauthorized",
  component: UnauthorizedPage,
});

/**
 * The inbox (spec 02 section 2): announcements, fetched unless the selected study is of the newer
 * instrument architecture.
 */
const inboxRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/inbox",
  component: lazyPage(
    () => import("../features/inbox/inbox-page.tsx"),
    (module) =>
      function InboxRoute() {
        return <module.InboxPage selectedStudyId={readSelection()?.studyId} />;
      },
  ),
});

/** Writing an announcement: clinical coordinators and administrators. */
const writeAnnouncementRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/inbox/new",
  beforeLoad: ({ location }) => {
    const user = requirePermanentPassword(location);
    if (!mayWriteAnnouncements(user)) throw redirect({ to: "/unauthorized" });
  },
  component: lazyPage(
    () => import("../features/inbox/write-announcement-page.tsx"),
    (module) => module.WriteAnnouncementPage,
  ),
});

/** Users, profile and passwords (spec 01 sections 2 and 4). */
const usersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users",
  beforeLoad: ({ location }) => {
    const user = requirePermanentPassword(location);
    if (!mayListUsers(user.role)) throw redirect({ to: "/unauthorized" });
  },
  component: lazyPage(
    () => import("../features/users/users-page.tsx"),
    (module) => module.UsersPage,
  ),
});

/** Editing another user, from the user list (spec 01 section 4); the page checks the rule. */
const editUserRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users/$userId/edit",
  params: {
    parse: (raw: Record<string, string>) => ({ userId: parseRouteId(raw.userId) }),
    stringify: (params: { userId: number }) => ({ userId: String(params.userId) }),
  },
  beforeLoad: ({ location }) => {
    const user = requirePermanentPassword(location);
    if (!mayListUsers(user.role)) throw redirect({ to: "/unauthorized" });
  },
  component: lazyPage(
    () => import("../features/users/edit-user-page.tsx"),
    (module) =>
      function EditUserRoute() {
        const { userId } = editUserRoute.useParams();
        return <module.EditUserPage userId={userId} />;
      },
  ),
});

/** Staff management (administrators): invite a user, import a staff CSV, a user's access. */
const inviteUserRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users/invite",
  beforeLoad: ({ location }) => {
    const user = requirePermanentPassword(location);
    if (!mayListUsers(user.role)) throw redirect({ to: "/unauthorized" });
  },
  component: lazyPage(
    () => import("../features/users/invite-user-page.tsx"),
    (module) => module.InviteUserPage,
  ),
});

const staffImportRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users/import",
  beforeLoad: ({ location }) => {
    const user = requirePermanentPassword(location);
    if (!mayListUsers(user.role)) throw redirect({ to: "/unauthorized" });
  },
  component: lazyPage(
    () => import("../features/users/staff-import-page.tsx"),
    (module) => module.StaffImportPage,
  ),
});

const staffAccessRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users/$userId/access",
  params: {
    parse: (raw: Record<string, string>) => ({ userId: parseRouteId(raw.userId) }),
    stringify: (params: { userId: number }) => ({ userId: String(params.userId) }),
  },
  beforeLoad: ({ location }) => {
    const user = requirePermanentPassword(location);
    if (!mayListUsers(user.role)) throw redirect({ to: "/unauthorized" });
  },
  component: lazyPage(
    () => import("../features/users/staff-access-page.tsx"),
    (module) =>
      function StaffAccessRoute() {
        const { userId } = staffAccessRoute.useParams();
        return <module.StaffAccessPage userId={userId} />;
      },
  ),
});

const profileRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users/profile",
  component: lazyPage(
    () => import("../features/profile/profile-page.tsx"),
    (module) => module.ProfilePage,
  ),
});

const changePasswordRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/users/change-password",
  component: lazyPage(
    () => import("../features/password/change-password-page.tsx"),
    (module) => module.ChangePasswordPage,
  ),
});

/** Where an activation link of an already-set password leads: the profile, saying so. */
const usersMeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/users/me",
  beforeLoad: ({ location }) => {
    showToast(alreadySetMessage, "info", TOAST_SESSION_MS);
    requirePermanentPassword(location);
    throw redirect({ to: "/users/profile", replace: true });
  },
});

const linkTokenSearch = (search: Record<string, unknown>): { token?: string } => ({
  token: typeof search.token === "string" && search.token !== "" ? search.token : undefined,
});

const activateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/users/activate",
  validateSearch: linkTokenSearch,
  component: lazyPage(
    () => import("../features/password/set-password-page.tsx"),
    ({ SetPasswordPage }) =>
      function ActivateRoute() {
        const { token } = activateRoute.useSearch();
        return <SetPasswordPage key={token} link="activate" token={token} />;
      },
  ),
});

const resetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/users/reset",
  validateSearch: linkTokenSearch,
  component: lazyPage(
    () => import("../features/password/set-password-page.tsx"),
    ({ SetPasswordPage }) =>
      function ResetRoute() {
        const { token } = resetRoute.useSearch();
        return <SetPasswordPage key={token} link="reset" token={token} />;
      },
  ),
});

/** Asks for a reset link or the username; with a link's token it is the reset form. */
const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/forgot-password",
  validateSearch: linkTokenSearch,
  component: lazyPage(
    () =>
      Promise.all([
        import("../features/password/forgot-password-page.tsx"),
        import("../features/password/set-password-page.tsx"),
      ]),
    ([{ ForgotPasswordPage }, { SetPasswordPage }]) =>
      function ForgotPasswordRoute(): ReactElement {
        const { token }: { token?: string } = forgotPasswordRoute.useSearch();
        return token ? <SetPasswordPage key={token} link="reset" token={token} /> : <ForgotPasswordPage />;
      },
  ),
});

/** Participant search; the submitted text is the ?q= search param, so back and forward work. */
const participantSearchRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/search",
  params: studySiteParams,
  // ?sort= and ?order= are the order of the site's list shown while no search is made.
  validateSearch: (
    search: Record<string, unknown>,
  ): { q?: string; sort?: ParticipantListSort; order?: ParticipantListOrder } => ({
    q: typeof search.q === "string" && search.q.trim() ? search.q.trim() : undefined,
    sort: (PARTICIPANT_LIST_SORTS as readonly unknown[]).includes(search.sort)
      ? (search.sort as ParticipantListSort)
      : undefined,
    order: (PARTICIPANT_LIST_ORDERS as readonly unknown[]).includes(search.order)
      ? (search.order as ParticipantListOrder)
      : undefined,
  }),
  component: lazyPage(
    () => import("../features/participant-search/participant-search-page.tsx"),
    ({ ParticipantSearchPage }) =>
      function ParticipantSearchRoute() {
        const { studyId, siteId } = participantSearchRoute.useParams();
        const { q, sort, order } = participantSearchRoute.useSearch();
        // Keyed by location: the search term resets on every location change (a new order of
        // the list is not one: the sort button keeps its focus).
        return (
          <ParticipantSearchPage
            key={`${studyId}/${siteId}?${q ?? ""}`}
            studyId={studyId}
            siteId={siteId}
            searchText={q}
            listSort={sort}
            listOrder={order}
          />
        );
      },
  ),
});

/** The site's pending clinician instruments across participants. */
const pendingInstrumentsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/pending",
  params: studySiteParams,
  component: lazyPage(
    () => import("../features/pending-instruments/pending-instruments-page.tsx"),
    ({ PendingInstrumentsPage }) =>
      function PendingInstrumentsRoute() {
        const params = pendingInstrumentsRoute.useParams();
        return <PendingInstrumentsPage {...params} />;
      },
  ),
});

/**
 * A participant's id in a route: the server's, or the provisional (negative) id of a participant
 * added on this device and not yet enrolled by the server (offline enrolment).
 */
function parseParticipantRouteId(raw: string | undefined): number {
  const provisional = raw?.startsWith("-") ? -parseRouteId(raw.slice(1)) : undefined;
  return isProvisionalParticipantId(provisional) ? provisional : parseRouteId(raw);
}

/** The page of a participant added on this device that the server does not know yet. */
const PendingParticipantPage = lazy(() =>
  import("../features/enrolment/pending-participant-page.tsx").then((module) => ({
    default: module.PendingParticipantPage,
  })),
);

/** Adding a participant at a site (enrollers, managers, administrators, coordinators). */
const addParticipantRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/participants/new",
  params: studySiteParams,
  component: lazyPage(
    () => import("../features/enrolment/add-participant-page.tsx"),
    ({ AddParticipantPage }) =>
      function AddParticipantRoute() {
        const params = addParticipantRoute.useParams();
        return <AddParticipantPage {...params} />;
      },
  ),
});

/** A site's participants from a CSV, with a dry run first. */
const importParticipantsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/participants/import",
  params: studySiteParams,
  component: lazyPage(
    () => import("../features/enrolment/import-participants-page.tsx"),
    ({ ImportParticipantsPage }) =>
      function ImportParticipantsRoute() {
        const params = importParticipantsRoute.useParams();
        return <ImportParticipantsPage {...params} />;
      },
  ),
});

/** Changing a participant's details. */
const editParticipantRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/participants/$participantId/edit",
  params: {
    parse: (raw: Record<string, string>) => ({
      ...studySiteParams.parse(raw),
      participantId: parseRouteId(raw.participantId),
    }),
    stringify: (params: { studyId: number; siteId: number; participantId: number }) => ({
      ...studySiteParams.stringify(params),
      participantId: String(params.participantId),
    }),
  },
  component: lazyPage(
    () => import("../features/enrolment/edit-participant-page.tsx"),
    ({ EditParticipantPage }) =>
      function EditParticipantRoute() {
        const params = editParticipantRoute.useParams();
        return <EditParticipantPage key={params.participantId} {...params} />;
      },
  ),
});

const participantHomeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/participants/$participantId",
  params: {
    parse: (raw: Record<string, string>) => ({
      ...studySiteParams.parse(raw),
      participantId: parseParticipantRouteId(raw.participantId),
    }),
    stringify: (params: { studyId: number; siteId: number; participantId: number }) => ({
      ...studySiteParams.stringify(params),
      participantId: String(params.participantId),
    }),
  },
  component: lazyPage(
    () => import("../features/participant-home/participant-home-page.tsx"),
    ({ ParticipantHomePage }) =>
      function ParticipantHomeRoute() {
        const params = participantHomeRoute.useParams();
        if (isProvisionalParticipantId(params.participantId)) {
          return (
            <Suspense fallback={null}>
              <PendingParticipantPage key={params.participantId} {...params} />
            </Suspense>
          );
        }
        // A new participant is a new page visit: its events are sent again.
        return <ParticipantHomePage key={params.participantId} {...params} />;
      },
  ),
});

/** Completing an instrument (spec 02 section 2); the query string goes to the definition call. */
const instrumentRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/participants/$participantId/instruments/$instrumentId/$instrument",
  params: {
    parse: (raw: Record<string, string>) => ({
      ...studySiteParams.parse(raw),
      participantId: parseParticipantRouteId(raw.participantId),
      instrumentId: parseRouteId(raw.instrumentId),
      instrument: raw.instrument ?? "",
    }),
    stringify: (params: {
      studyId: number;
      siteId: number;
      participantId: number;
      instrumentId: number;
      instrument: string;
    }) => ({
      ...studySiteParams.stringify(params),
      participantId: String(params.participantId),
      instrumentId: String(params.instrumentId),
      instrument: params.instrument,
    }),
  },
  // The download starts with the navigation, while the route's code is still loading, and so
  // does the opening of the drafts database the page reads next.
  loader: ({ context, params, location }) => {
    void context.queryClient.prefetchQuery(definitionBodyQuery({ ...params, searchStr: location.searchStr }));
    openDraftStore();
  },
  component: lazyPage(
    () => import("../features/instrument/instrument-route.tsx"),
    (module) => module.InstrumentRoute,
  ),
});

/** Upcoming virtual visits (spec 01 "Virtual visits page"). */
const visitsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/visits",
  params: studySiteParams,
  component: lazyPage(
    () => import("../features/visits/visits-route.tsx"),
    (module) => module.VisitsRoute,
  ),
});

/**
 * A visit's room: the visits page with that room open in the global overlay. The segment is the
 * visit's room_name (the spec's roomToken segment); validation decides whether it can connect.
 */
const visitRoomRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/visits/$roomToken",
  params: {
    parse: (raw: Record<string, string>) => {
      const roomToken = raw.roomToken ?? "";
      if (!ROOM_NAME_PATTERN.test(roomToken)) throw notFound();
      return { ...studySiteParams.parse(raw), roomToken };
    },
    stringify: (params: { studyId: number; siteId: number; roomToken: string }) => ({
      ...studySiteParams.stringify(params),
      roomToken: params.roomToken,
    }),
  },
  component: lazyPage(
    () => import("../features/visits/visits-route.tsx"),
    (module) => module.VisitRoomRoute,
  ),
});

/** The participant's join page: public (the participant has no account), from the visit's mail. */
const joinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/join/$secret",
  component: lazyPage(
    () => import("../features/visit-join/join-route.tsx"),
    (module) => module.JoinRoute,
  ),
});

/**
 * The consent calls load with the consent pages, not with the app: their schemas (and the survey
 * definition's) would otherwise be in every first download (scripts/bundle-budget.ts).
 */
const loadConsentsApi = withChunkTimeout(() => import("../api/consents-api.ts"));

/** The consent search list (spec 02 section 2); a coordinator choosing a consent study lands here. */
const consentListRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/consents",
  params: studySiteParams,
  // The list starts loading with the navigation; a failure (403: the access-denied panel) is
  // the page's to show, so the loader does not throw it.
  loader: async ({ context, params }) => {
    const { siteConsentsQuery } = await loadConsentsApi();
    await context.queryClient
      .ensureQueryData(siteConsentsQuery(params.studyId, params.siteId))
      .catch(() => undefined);
  },
  component: lazyPage(
    () => import("../features/consents/consent-routes.tsx"),
    (module) => module.ConsentListRoute,
  ),
});

/**
 * The participants of one consent; ?signed=<status> when arriving from a consent session that
 * moved the participant to that status (its message says what happens next).
 */
const consentParticipantsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/consents/$consentId",
  params: {
    parse: (raw: Record<string, string>) => ({
      ...studySiteParams.parse(raw),
      consentId: parseRouteId(raw.consentId),
    }),
    stringify: (params: { studyId: number; siteId: number; consentId: number }) => ({
      ...studySiteParams.stringify(params),
      consentId: String(params.consentId),
    }),
  },
  // An unknown value is set to undefined, not left out: the router keeps search params the
  // validation does not return.
  validateSearch: (search: Record<string, unknown>): { signed?: ConsentParticipantStatus | undefined } => ({
    signed: (CONSENT_PARTICIPANT_STATUSES as readonly unknown[]).includes(search.signed)
      ? (search.signed as ConsentParticipantStatus)
      : undefined,
  }),
  loaderDeps: ({ search }) => ({ signed: search.signed !== undefined }),
  // Arriving from a finished consent, the statuses have changed: marked stale, the page fetches
  // them again (the cached ones stay on screen if that fails, e.g. offline with the consent still
  // in the outbox).
  loader: async ({ context, params, deps }) => {
    const { consentParticipantsQuery } = await loadConsentsApi();
    const query = consentParticipantsQuery(params.consentId, params.siteId);
    if (deps.signed)
      await context.queryClient.invalidateQueries({ queryKey: query.queryKey, refetchType: "none" });
    await context.queryClient.ensureQueryData(query).catch(() => undefined);
  },
  component: lazyPage(
    () => import("../features/consents/consent-routes.tsx"),
    (module) => module.ConsentParticipantsRoute,
  ),
});

/** Completing a consent for one participant (spec 02 section 2); the definition loads with the navigation. */
const consentCompletionRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "/studies/$studyId/sites/$siteId/consents/$consentId/participants/$participantId/version/$versionId",
  params: {
    parse: (raw: Record<string, string>) => ({
      ...studySiteParams.parse(raw),
      consentId: parseRouteId(raw.consentId),
      // A participant enrolled offline (a provisional id) signs from the consent's blank definition.
      participantId: parseParticipantRouteId(raw.participantId),
      versionId: parseRouteId(raw.versionId),
    }),
    stringify: (params: {
      studyId: number;
      siteId: number;
      consentId: number;
      participantId: number;
      versionId: number;
    }) => ({
      ...studySiteParams.stringify(params),
      consentId: String(params.consentId),
      participantId: String(params.participantId),
      versionId: String(params.versionId),
    }),
  },
  loader: async ({ context, params }) => {
    const { blankConsentQuery, consentDefinitionQuery } = await loadConsentsApi();
    if (isProvisionalParticipantId(params.participantId)) {
      void context.queryClient.prefetchQuery(blankConsentQuery(params.consentId, params.versionId));
    } else {
      void context.queryClient.prefetchQuery(
        consentDefinitionQuery(params.consentId, params.versionId, params.participantId),
      );
    }
  },
  component: lazyPage(
    () => import("../features/consent-completion/consent-completion-route.tsx"),
    (module) => module.ConsentCompletionRoute,
  ),
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  signedInRoute.addChildren([
    studiesRoute,
    participantSearchRoute,
    pendingInstrumentsRoute,
    addParticipantRoute,
    importParticipantsRoute,
    editParticipantRoute,
    participantHomeRoute,
    instrumentRoute,
    visitsRoute,
    visitRoomRoute,
    consentListRoute,
    consentParticipantsRoute,
    consentCompletionRoute,
    outboxRoute,
    inboxRoute,
    writeAnnouncementRoute,
    usersRoute,
    editUserRoute,
    inviteUserRoute,
    staffImportRoute,
    staffAccessRoute,
    profileRoute,
    changePasswordRoute,
  ]),
  usersMeRoute,
  activateRoute,
  resetRoute,
  forgotPasswordRoute,
  forcedChangeRoute,
  unauthorizedRoute,
  joinRoute,
]);

export function createAppRouter(
  queryClient: QueryClient,
  queriesRestored: () => Promise<void> = () => Promise.resolve(),
) {
  return createRouter({
    routeTree,
    context: { queryClient, queriesRestored },
    defaultPreload: "intent",
    defaultErrorComponent: RouteError,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
