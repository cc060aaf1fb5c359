/**
 * Where a minimised video container sits and how big it is (spec 02 widgets: "Video container:
 * full-size or minimised; minimised it can be dragged and resized with aspect ratio locked").
 * Plain functions over rectangles in CSS pixels of the viewport, so the rules are tested without
 * a browser: the container stays inside the viewport, keeps its aspect ratio, and is never
 * narrower than MIN_WIDTH_PX (unless the viewport itself is narrower).
 */

export type Rect = { x: number; y: number; width: number; height: number };
export type Viewport = { width: number; height: number };

export const MIN_WIDTH_PX = 200;
export const DEFAULT_WIDTH_PX = 320;
/** Gap between a newly minimised container and the viewport's edges. */
export const EDGE_MARGIN_PX = 16;
/** One arrow key press; with Shift, KEY_STEP_LARGE_PX. */
export const KEY_STEP_PX = 10;
export const KEY_STEP_LARGE_PX = 50;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/** The largest width whose height (width / aspect) still fits the viewport. */
function maxWidth(viewport: Viewport, aspect: number) {
  return Math.min(viewport.width, viewport.height * aspect);
}

/** A width within [MIN_WIDTH_PX, what fits]; a viewport narrower than the minimum wins. */
function clampWidth(width: number, viewport: Viewport, aspect: number) {
  const max = maxWidth(viewport, aspect);
  return Math.min(Math.max(width, MIN_WIDTH_PX), max);
}

/** Moves a rectangle back inside the viewport (its size unchanged). */
export function keepInside(rect: Rect, viewport: Viewport): Rect {
  return {
    ...rect,
    x: clamp(rect.x, 0, viewport.width - rect.width),
    y: clamp(rect.y, 0, viewport.height - rect.height),
  };
}

/** Where a room goes when it is first minimised: bottom right, DEFAULT_WIDTH_PX wide. */
export function initialRect(viewport: Viewport, aspect: number): Rect {
  const width = clampWidth(Math.min(DEFAULT_WIDTH_PX, viewport.width - 2 * EDGE_MARGIN_PX), viewport, aspect);
  const height = width / aspect;
  return keepInside(
    {
      x: viewport.width - width - EDGE_MARGIN_PX,
      y: viewport.height - height - EDGE_MARGIN_PX,
      width,
      height,
    },
    viewport,
  );
}

/** Dragging (or an arrow key): moves by dx, dy and stays inside the viewport. */
export function moveBy(rect: Rect, dx: number, dy: number, viewport: Viewport): Rect {
  return keepInside({ ...rect, x: rect.x + dx, y: rect.y + dy }, viewport);
}

/**
 * Resizing from the top-left handle: the bottom-right corner stays where it is. A pointer moved
 * by dx, dy grows the container by whichever of -dx or -dy (in width terms) is larger, so it
 * follows a drag in any direction while the aspect ratio stays locked.
 */
export function resizeFromTopLeft(
  rect: Rect,
  dx: number,
  dy: number,
  viewport: Viewport,
  aspect: number,
): Rect {
  const byX = -dx;
  const byY = -dy * aspect;
  const grow = Math.abs(byX) >= Math.abs(byY) ? byX : byY;
  const right = rect.x + rect.width;
  const bottom = rect.y + rect.height;
  // The fixed corner limits growth: the new top-left must stay inside the viewport.
  const fits = Math.min(right, bottom * aspect, maxWidth(viewport, aspect));
  const width = Math.min(Math.max(rect.width + grow, MIN_WIDTH_PX), Math.max(fits, MIN_WIDTH_PX));
  const height = width / aspect;
  return keepInside({ x: right - width, y: bottom - height, width, height }, viewport);
}

/** After the viewport changed (rotation, window resize): same place where possible, size that fits. */
export function fitToViewport(rect: Rect, viewport: Viewport, aspect: number): Rect {
  const width = clampWidth(rect.width, viewport, aspect);
  return keepInside({ ...rect, width, height: width / aspect }, viewport);
}

export type KeyAction = { kind: "move"; dx: number; dy: number } | { kind: "resize"; dWidth: number };

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * The keyboard: arrow keys move the container (Shift: larger steps); + and - (or Alt with an
 * arrow up or down) make it larger or smaller. Null for other keys.
 */
export function keyAction(key: string, shiftKey: boolean, altKey = false): KeyAction | null {
  const step = shiftKey ? KEY_STEP_LARGE_PX : KEY_STEP_PX;
  if (key === "+" || key === "=" || (altKey && key === "ArrowUp")) return { kind: "resize", dWidth: step };
  if (key === "-" || key === "_" || (altKey && key === "ArrowDown")) return { kind: "resize", dWidth: -step };
  const arrow = ARROWS[key];
  if (!arrow) return null;
  return { kind: "move", dx: arrow[0] * step, dy: arrow[1] * step };
}

/** Applies a key action; a keyboard resize also keeps the bottom-right corner in place. */
export function applyKeyAction(rect: Rect, action: KeyAction, viewport: Viewport, aspect: number): Rect {
  if (action.kind === "move") return moveBy(rect, action.dx, action.dy, viewport);
  return resizeFromTopLeft(rect, -action.dWidth, 0, viewport, aspect);
}
