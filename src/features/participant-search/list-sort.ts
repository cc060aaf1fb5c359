/**
 * The order of the site's participant list: what a column header's press and the phone's
 * "Sort by" choice make of it.
 */
import {
  PARTICIPANT_LIST_ORDERS,
  PARTICIPANT_LIST_SORTS,
  type ParticipantListOrder,
  type ParticipantListSort,
} from "../../../core/contracts/participant-list-sorts.ts";

export type ListOrder = { sort: ParticipantListSort; order: ParticipantListOrder };

export const DEFAULT_LIST_ORDER: ListOrder = { sort: "last_name", order: "asc" };

/**
 * A press on a column's header: the sorted column turns its order around; another column sorts
 * by itself, names and subject ids from A, enrolment from the newest (what a coordinator looks
 * for first: who joined last).
 */
export function listOrderAfterHeaderPress(
  column: ParticipantListSort,
  sort: ParticipantListSort,
  order: ParticipantListOrder,
): ListOrder {
  if (column === sort) return { sort, order: order === "asc" ? "desc" : "asc" };
  return { sort: column, order: column === "enrolled" ? "desc" : "asc" };
}

export const sortChoiceOf = (sort: ParticipantListSort, order: ParticipantListOrder) => `${sort}:${order}`;

export function parseSortChoice(value: string): ListOrder | undefined {
  const [sort, order] = value.split(":");
  if (!(PARTICIPANT_LIST_SORTS as readonly (string | undefined)[]).includes(sort)) return undefined;
  if (!(PARTICIPANT_LIST_ORDERS as readonly (string | undefined)[]).includes(order)) return undefined;
  return { sort: sort as ParticipantListSort, order: order as ParticipantListOrder };
}
