/**
 * Loading flags of spec 01 section 4: a general flag (a count of requests that asked for the
 * loader) and per-key flags. (The spec's forced flag is left out: no screen forces the loader.)
 */
type Listener = () => void;
const listeners = new Set<Listener>();

type LoadingState = { general: number; keys: ReadonlyMap<string, number> };
let state: LoadingState = { general: 0, keys: new Map() };

function emit(next: LoadingState) {
  state = next;
  for (const listener of listeners) listener();
}

export function startLoading(key?: string) {
  if (key === undefined) return emit({ ...state, general: state.general + 1 });
  const keys = new Map(state.keys);
  keys.set(key, (keys.get(key) ?? 0) + 1);
  emit({ ...state, keys });
}

export function stopLoading(key?: string) {
  if (key === undefined) return emit({ ...state, general: Math.max(0, state.general - 1) });
  const keys = new Map(state.keys);
  const count = (keys.get(key) ?? 0) - 1;
  if (count > 0) keys.set(key, count);
  else keys.delete(key);
  emit({ ...state, keys });
}

export function isLoading(key?: string) {
  if (key !== undefined) return state.keys.has(key);
  return state.general > 0;
}

export function getLoadingState() {
  return state;
}

export function subscribeToLoading(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
