/**
 * A visit's room name, in its own module: the router checks the room route's segment with it,
 * and importing it from visits.ts would put every visit schema in the app's first download.
 */
export const ROOM_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
