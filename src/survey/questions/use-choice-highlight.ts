import { useCallback, useEffect, useRef, useState } from "react";
import { DESELECT_HIGHLIGHT_MS, SELECT_HIGHLIGHT_MS } from "./timings.ts";

export type ChoiceHighlight = "selecting" | "deselecting";

/**
 * The short highlights of a single choice (spec 02 §4): a choice just selected is `selecting`
 * for 300 ms, one just deselected is `deselecting` for 200 ms. Timers end with the component.
 */
export function useChoiceHighlight() {
  const [highlights, setHighlights] = useState<Readonly<Record<string, ChoiceHighlight>>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const highlight = useCallback((choiceId: string, kind: ChoiceHighlight) => {
    const previous = timers.current.get(choiceId);
    if (previous !== undefined) clearTimeout(previous);
    setHighlights((current) => ({ ...current, [choiceId]: kind }));
    const timer = setTimeout(
      () => {
        timers.current.delete(choiceId);
        setHighlights((current) => {
          const next = { ...current };
          delete next[choiceId];
          return next;
        });
      },
      kind === "selecting" ? SELECT_HIGHLIGHT_MS : DESELECT_HIGHLIGHT_MS,
    );
    timers.current.set(choiceId, timer);
  }, []);

  return { highlights, highlight };
}
