/**
 * The inbox's calls (core/contracts/calls/announcement-calls.ts): the announcements list with the
 * spec's architecture-version rule, its optimistic read state, writing an announcement, and the
 * onboarding cards' state (kept on the server with the user; the me call reports it).
 * Marking an announcement read is not a call here: its read event goes through the outbox.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type {
  Announcement,
  AnnouncementInstrument,
  AnnouncementInstrumentsResponse,
  AnnouncementsResponse,
  PostAnnouncementRequest,
} from "../../core/contracts/announcements.ts";
import { isNewerArchitecture } from "../../core/contracts/instrument-architecture.ts";
import type { OnboardingKind, OnboardingState } from "../../core/contracts/onboarding.ts";
import type { MeResponse } from "../../core/contracts/user.ts";
import { updateStoredUser } from "../auth/session-store.ts";
import { useStoredUser } from "../auth/use-stored-user.ts";
import type { OutboxItem } from "../outbox/outbox-item.ts";
import { outboxQuery } from "../outbox-ui/use-outbox.ts";
import { studyQuery } from "./studies-api.ts";
import { meQuery, userKeys } from "./users-api.ts";

/** The requests and their schemas, loaded with the first one (see announcements-calls.ts). */
const calls = () => import("./announcements-calls.ts");

export const announcementKeys = {
  all: ["announcements"] as const,
  list: () => [...announcementKeys.all, "list"] as const,
  instruments: (studyId: number) => [...announcementKeys.all, "instruments", studyId] as const,
};

export const announcementsQuery = () =>
  queryOptions({
    queryKey: announcementKeys.list(),
    queryFn: async ({ signal }) => (await calls()).fetchAnnouncements(signal),
    // Kept on the device, so the inbox opens offline with what was last fetched.
    meta: { persist: true },
  });

/** A study's ANNOUNCEMENT instruments (the newer architecture's announcements). */
export const announcementInstrumentsQuery = (studyId: number) =>
  queryOptions({
    queryKey: announcementKeys.instruments(studyId),
    queryFn: async ({ signal }) => (await calls()).fetchAnnouncementInstruments(studyId, signal),
    meta: { persist: true },
  });

/** The events of this user's "events" items in the outbox (waiting, retrying or refused). */
function queuedEventsOf(items: readonly OutboxItem[], userId: number) {
  return items.flatMap((item) => {
    if (item.kind !== "event" || item.userId !== userId || item.request.body.type !== "json") return [];
    const events: unknown = item.request.body.value;
    return Array.isArray(events)
      ? (events as { type?: unknown; participant?: unknown; info?: Record<string, unknown> }[])
      : [];
  });
}

/**
 * The announcement instruments this user has opened whose read event (naming the instrument and
 * no participant) is still in the outbox.
 */
export function announcementInstrumentsReadInOutbox(
  items: readonly OutboxItem[],
  userId: number,
): Set<number> {
  const ids = new Set<number>();
  for (const event of queuedEventsOf(items, userId)) {
    const id = event.info?.instrument_id;
    if (event.type === "read" && event.participant === undefined && typeof id === "number") ids.add(id);
  }
  return ids;
}

/**
 * The announcements this user has opened whose read event is still in the outbox (waiting for
 * the network, retrying, or refused): the server does not know yet, so a list fetched meanwhile
 * still says unread.
 */
export function announcementsReadInOutbox(items: readonly OutboxItem[], userId: number): Set<number> {
  const ids = new Set<number>();
  for (const event of queuedEventsOf(items, userId)) {
    const id = event.info?.announcement_id;
    if (event.type === "read" && typeof id === "number") ids.add(id);
  }
  return ids;
}

export type InboxAnnouncements = {
  /** The list query; idle (never fetched) when `skipped`. */
  query: ReturnType<typeof useQuery<AnnouncementsResponse>>;
  /** The list as the user sees it: read once opened, whether or not its read event has arrived. */
  announcements: Announcement[];
  /**
   * The selected study is of the newer instrument architecture: the list is not fetched, the
   * study's ANNOUNCEMENT instruments are (`instrumentAnnouncements`).
   */
  skipped: boolean;
  /** The newer architecture's announcements of the selected study; idle unless `skipped`. */
  instrumentQuery: ReturnType<typeof useQuery<AnnouncementInstrumentsResponse>>;
  /** Those announcements as the user sees them: read once opened. */
  instrumentAnnouncements: AnnouncementInstrument[];
  /** Unread announcements of either kind: the navigation's dot. */
  unreadCount: number;
  /** The selected study's name, when known. */
  studyName: string | undefined;
};

/**
 * The announcements, fetched only when the selected study's instrument architecture version is
 * not above the default (spec 02 section 2); above it, the study's ANNOUNCEMENT instruments are
 * fetched instead. No study selected: fetched. The study's version
 * comes from the study call; while it loads nothing is fetched, and when it fails the default
 * is assumed.
 */
export function useInboxAnnouncements(selectedStudyId: number | undefined): InboxAnnouncements {
  const user = useStoredUser();
  const permitted =
    selectedStudyId !== undefined && user?.permissions?.[String(selectedStudyId)] !== undefined;
  const study = useQuery({ ...studyQuery(selectedStudyId ?? 0), enabled: user !== null && permitted });
  const studyKnown = !permitted || study.isSuccess || study.isError;
  const skipped = permitted && isNewerArchitecture(study.data?.config.instrument_architecture_version);
  const query = useQuery({ ...announcementsQuery(), enabled: user !== null && studyKnown && !skipped });
  const instrumentQuery = useQuery({
    ...announcementInstrumentsQuery(selectedStudyId ?? 0),
    enabled: user !== null && skipped,
  });
  const outbox = useQuery(outboxQuery());
  const readInOutbox = user ? announcementsReadInOutbox(outbox.data ?? [], user.id) : new Set<number>();
  const announcements = skipped
    ? []
    : (query.data?.announcements ?? []).map((item) =>
        !item.read && readInOutbox.has(item.id) ? { ...item, read: true } : item,
      );
  const instrumentsRead = user
    ? announcementInstrumentsReadInOutbox(outbox.data ?? [], user.id)
    : new Set<number>();
  const instrumentAnnouncements = skipped
    ? (instrumentQuery.data?.announcements ?? []).map((item) =>
        !item.read && instrumentsRead.has(item.instrument_id) ? { ...item, read: true } : item,
      )
    : [];
  const unreadCount =
    announcements.filter((item) => !item.read).length +
    instrumentAnnouncements.filter((item) => !item.read).length;
  return {
    query,
    announcements,
    skipped,
    instrumentQuery,
    instrumentAnnouncements,
    unreadCount,
    studyName: permitted
      ? (study.data?.name ?? user?.permissions?.[String(selectedStudyId)]?.study_name)
      : undefined,
  };
}

/** Shows an announcement as read at once (its read event is on its way through the outbox). */
export function markReadInCache(queryClient: QueryClient, announcementId: number) {
  queryClient.setQueryData<AnnouncementsResponse>(announcementKeys.list(), (current) =>
    current
      ? {
          announcements: current.announcements.map((item) =>
            item.id === announcementId ? { ...item, read: true } : item,
          ),
        }
      : current,
  );
}

/** Shows an announcement instrument as read at once (its read event is on its way). */
export function markInstrumentReadInCache(queryClient: QueryClient, studyId: number, instrumentId: number) {
  queryClient.setQueryData<AnnouncementInstrumentsResponse>(
    announcementKeys.instruments(studyId),
    (current) =>
      current
        ? {
            announcements: current.announcements.map((item) =>
              item.instrument_id === instrumentId ? { ...item, read: true } : item,
            ),
          }
        : current,
  );
}

/** POST /control/announcements (announcements-calls.ts says how refusals are shown). */
export function usePostAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, idempotencyKey }: { body: PostAnnouncementRequest; idempotencyKey: string }) =>
      (await calls()).postAnnouncement(body, idempotencyKey),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });
}

const NO_CARD_DISMISSED: OnboardingState = { announcements: false, activities: false };

/** Which onboarding cards the user has dismissed: from the me call, else the signed-in copy. */
export function useOnboarding(): { state: OnboardingState; known: boolean } {
  const user = useStoredUser();
  const me = useQuery({ ...meQuery(), enabled: user !== null });
  const state = me.data?.onboarding ?? user?.onboarding;
  return { state: { ...NO_CARD_DISMISSED, ...state }, known: state !== undefined };
}

/** Dismissing a card hides it at once; the server's answer then becomes the cached state. */
export function useDismissOnboarding() {
  const queryClient = useQueryClient();
  const apply = (onboarding: OnboardingState) => {
    queryClient.setQueryData<MeResponse>(userKeys.me(), (me) => (me ? { ...me, onboarding } : me));
    updateStoredUser({ onboarding });
  };
  return useMutation({
    mutationFn: async (kind: OnboardingKind) => (await calls()).dismissOnboarding(kind),
    onMutate: (kind) => {
      const previous = queryClient.getQueryData<MeResponse>(userKeys.me())?.onboarding;
      apply({ ...NO_CARD_DISMISSED, ...previous, [kind]: true });
      return { previous };
    },
    onSuccess: (response) => apply(response.onboarding),
    onError: (_error, _kind, context) => {
      if (context?.previous) apply(context.previous);
    },
  });
}
