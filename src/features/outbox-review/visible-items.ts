/**
 * Who sees what on the queue review page, and in what order. A Clinical Coordinator (role '16'
 * in any study) sees every item on this device, but only the metadata of other users' items:
 * their request (the payload) is left out here, so it never reaches the screen or an export.
 * Everyone else sees only their own items. Items are grouped by participant, by participant id
 * with "no participant" last, and keep the outbox order (oldest first) inside a group.
 */
import { ROLE_CODE } from "../../../core/contracts/roles.ts";
import type { StudyPermission } from "../../../core/contracts/user.ts";
import type { OutboxRequest } from "../../outbox/outbox-item.ts";
import type { ObservedItem } from "../../outbox-ui/use-outbox.ts";
import { summarizeUnsent, unsentTotal } from "../../outbox-ui/unsent-summary.ts";

export const COORDINATOR_ROLE = ROLE_CODE.clinicalCoordinator;

export type OutboxViewer = {
  userId: number;
  permissions?: Record<string, StudyPermission>;
};

/** What the page may show of one item: everything but the request for someone else's item. */
export type ReviewItem = Omit<ObservedItem, "request"> & {
  /** Made by the viewer. */
  own: boolean;
  /** Only on the viewer's own items. */
  request?: OutboxRequest;
  /** A refused item of the viewer's own: it may be exported and discarded. */
  canExportAndDiscard: boolean;
};

export type ParticipantGroup = {
  /** undefined: writes without a participant (e.g. some events). */
  participantId: number | undefined;
  items: ReviewItem[];
};

/** The Clinical Coordinator role in any study. */
export function isCoordinator(permissions: Record<string, StudyPermission> | undefined) {
  return Object.values(permissions ?? {}).some((study) => study.role === COORDINATOR_ROLE);
}

function toReviewItem(item: ObservedItem, viewerId: number): ReviewItem {
  const { request, ...metadata } = item;
  const own = item.userId === viewerId;
  return {
    ...metadata,
    own,
    ...(own ? { request } : {}),
    canExportAndDiscard: own && item.state === "failed",
  };
}

/** The items this viewer may see, grouped by participant. */
export function visibleOutboxGroups(
  items: readonly ObservedItem[],
  viewer: OutboxViewer,
): ParticipantGroup[] {
  const seesEveryone = isCoordinator(viewer.permissions);
  const groups = new Map<number | undefined, ReviewItem[]>();
  for (const item of items) {
    if (!seesEveryone && item.userId !== viewer.userId) continue;
    const group = groups.get(item.participantId) ?? [];
    group.push(toReviewItem(item, viewer.userId));
    groups.set(item.participantId, group);
  }
  return [...groups.entries()]
    .map(([participantId, groupItems]) => ({ participantId, items: groupItems }))
    .sort((a, b) => {
      if (a.participantId === b.participantId) return 0;
      if (a.participantId === undefined) return 1;
      if (b.participantId === undefined) return -1;
      return a.participantId - b.participantId;
    });
}

/**
 * How many of other users' items wait on this device that the viewer is not shown (a shared
 * tablet): counted as the page counts (a form with its files is one), never listed, so that
 * "nothing is waiting" is not said while someone else's work has not reached the server.
 */
export function hiddenWaitingOfOthers(items: readonly ObservedItem[], viewer: OutboxViewer): number {
  if (isCoordinator(viewer.permissions)) return 0;
  return unsentTotal(summarizeUnsent(items.filter((item) => item.userId !== viewer.userId)));
}

/**
 * Whether "Retry now" can do anything for an item: not while it waits for its user to sign in
 * (no token to send it with) or for the uploads it depends on (they have their own Retry).
 */
export function canRetry(item: Pick<ReviewItem, "status">) {
  return item.status !== "waiting-for-sign-in" && item.status !== "waiting-for-dependencies";
}

/**
 * The items "Retry all" sends again: those still waiting that a retry can move. A refused item
 * is retried only one by one, on purpose.
 */
export function idsToRetry(groups: readonly ParticipantGroup[]) {
  return groups
    .flatMap((group) => group.items)
    .filter((item) => item.state === "pending" && canRetry(item))
    .map((item) => item.id);
}
