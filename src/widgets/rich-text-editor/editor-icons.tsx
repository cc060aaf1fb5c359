/** The toolbar's icons (decorative: each button carries its name). */
import { EDITOR_ICON_PATHS, type EditorIconName } from "./editor-icon-paths.ts";

export type { EditorIconName };

export function EditorIcon({ name }: { name: EditorIconName }) {
  return (
    <svg
      className="rich-text-editor__icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth={name === "bulletList" ? 2.2 : 2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={EDITOR_ICON_PATHS[name]} />
    </svg>
  );
}
