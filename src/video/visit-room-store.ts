/**
 * The one visit room of this tab (global UI: the visit-room overlay). Owns the current
 * RoomState and runs the machine's effects through a handler the overlay registers (the toast
 * needs translated text, which this plain module does not hold). Does not own the media: the
 * overlay's video service follows this state.
 */
import {
  CLOSED_ROOM,
  transition,
  type RoomEffect,
  type RoomEvent,
  type RoomState,
} from "./visit-room-state.ts";

type Listener = () => void;
const listeners = new Set<Listener>();
let state: RoomState = CLOSED_ROOM;
let effectHandler: (effect: RoomEffect) => void = () => {};

export function getRoomState(): RoomState {
  return state;
}

export function dispatchRoom(event: RoomEvent): RoomState {
  const result = transition(state, event);
  if (result.state !== state) {
    state = result.state;
    for (const listener of listeners) listener();
  }
  for (const effect of result.effects) effectHandler(effect);
  return state;
}

export function subscribeToRoom(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The overlay's handler for the machine's effects; returns the function that removes it. */
export function handleRoomEffects(handler: (effect: RoomEffect) => void) {
  effectHandler = handler;
  return () => {
    if (effectHandler === handler) effectHandler = () => {};
  };
}
