/**
 * The draggable, resizable video container (spec 02 widgets): full-size, or minimised into a
 * small box over the page that can be dragged (pointer), resized from its top-left handle with
 * the aspect ratio locked and at least MIN_WIDTH_PX wide, and moved or resized with the
 * keyboard (arrow keys, + and -). Owns only its minimised rectangle; what it shows and what
 * full-size looks like are the caller's. The same element stays mounted in both modes, so the
 * videos inside keep playing when it shrinks or grows.
 */
import { useLingui } from "@lingui/react/macro";
import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from "react";
import {
  applyKeyAction,
  fitToViewport,
  initialRect,
  keyAction,
  moveBy,
  resizeFromTopLeft,
  type Rect,
} from "./video-container-geometry.ts";

export type VideoContainerProps = {
  minimized: boolean;
  /** Width / height of the minimised box. */
  aspectRatio?: number;
  /** The accessible name of the container. */
  label: string;
  className?: string;
  children: ReactNode;
};

const viewport = () => ({ width: window.innerWidth, height: window.innerHeight });

/** Pointer presses on these start no drag: they are the container's own controls. */
const INTERACTIVE = "button, a, input, select, textarea, [data-resize-handle]";

type Gesture = { kind: "move" | "resize"; pointerId: number; startX: number; startY: number; start: Rect };

export function VideoContainer({
  minimized,
  aspectRatio = 16 / 9,
  label,
  className = "",
  children,
}: VideoContainerProps) {
  const { t } = useLingui();
  const hintId = useId();
  const [rect, setRect] = useState<Rect | null>(null);
  const gesture = useRef<Gesture | null>(null);
  // First minimised: bottom right. Later: where the person left it.
  const shown = minimized ? (rect ?? initialRect(viewport(), aspectRatio)) : null;

  useEffect(() => {
    if (!minimized) return;
    const refit = () =>
      setRect((current) =>
        fitToViewport(current ?? initialRect(viewport(), aspectRatio), viewport(), aspectRatio),
      );
    window.addEventListener("resize", refit);
    return () => window.removeEventListener("resize", refit);
  }, [minimized, aspectRatio]);

  const begin = (kind: Gesture["kind"], event: PointerEvent<HTMLElement>) => {
    if (!shown || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    gesture.current = {
      kind,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      start: shown,
    };
    event.preventDefault();
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    setRect(
      current.kind === "move"
        ? moveBy(current.start, dx, dy, viewport())
        : resizeFromTopLeft(current.start, dx, dy, viewport(), aspectRatio),
    );
  };

  const end = (event: PointerEvent<HTMLElement>) => {
    if (gesture.current?.pointerId === event.pointerId) gesture.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Only keys pressed on the container itself: its buttons keep their own keys.
    if (!shown || event.target !== event.currentTarget) return;
    const action = keyAction(event.key, event.shiftKey, event.altKey);
    if (!action) return;
    event.preventDefault();
    setRect(applyKeyAction(shown, action, viewport(), aspectRatio));
  };

  return (
    // The container itself is what the keyboard moves (arrow keys) and the pointer drags: it is
    // focusable and listens while minimised; its buttons stay ordinary buttons.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      className={`video-container ${minimized ? "video-container--minimized" : "video-container--full"} ${className}`}
      aria-label={label}
      aria-describedby={minimized ? hintId : undefined}
      // Focusable when minimised, so the keyboard can move it.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={minimized ? 0 : undefined}
      style={shown ? { left: shown.x, top: shown.y, width: shown.width, height: shown.height } : undefined}
      data-testid="video-container"
      onPointerDown={(event) => {
        if (minimized && !(event.target as Element).closest(INTERACTIVE)) begin("move", event);
      }}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
    >
      {children}
      {minimized ? (
        <>
          <span id={hintId} className="visually-hidden">
            {t({
              id: "video_container_hint",
              message:
                "Drag to move, or use the arrow keys. Drag the top-left corner, or press + and -, to resize.",
            })}
          </span>
          <span
            className="video-container__resize"
            data-resize-handle=""
            data-testid="video-container-resize"
            aria-hidden="true"
            onPointerDown={(event) => {
              event.stopPropagation();
              begin("resize", event);
            }}
            onPointerMove={onPointerMove}
            onPointerUp={end}
            onPointerCancel={end}
          />
        </>
      ) : null}
    </section>
  );
}
