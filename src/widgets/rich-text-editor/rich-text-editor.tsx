/**
 * The rich text editor (spec 02 section 2; the inbox's announcement authoring): TipTap with a
 * toolbar for bold, italic, bulleted and numbered lists, links, undo and redo. The toolbar is
 * React Aria's (role="toolbar", arrow keys move between its buttons and Tab leaves it); the
 * formatting buttons are toggle buttons (aria-pressed) that follow the selection. The editable
 * area is a multi-line textbox named by the visible label. The HTML goes out through onChange
 * ("" while the text is empty); whoever stores or shows it sanitises it (the server and the
 * inbox do), this widget only keeps to the marks its toolbar offers.
 *
 * TipTap and ProseMirror are large: load the editor on demand, so it only ships with the pages
 * that write rich text:
 *
 *   const RichTextEditor = lazy(() => import("./rich-text-editor.tsx"));
 *
 * (the module's default export is the component; the named export is the same function).
 */
import { useLingui } from "@lingui/react/macro";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import { StarterKit } from "@tiptap/starter-kit";
import { useEffect, useId, useRef } from "react";
import { Button, ToggleButton, Toolbar, type PressEvent } from "react-aria-components";
import { LinkButton } from "./link-button.tsx";
import { EditorIcon } from "./editor-icons.tsx";
import "../widgets.css";
import "./rich-text-editor.css";

export type RichTextEditorProps = {
  /** The visible label; it names the editable area. */
  label: string;
  /** The HTML; "" for no text. */
  value: string;
  onChange: (html: string) => void;
  /** The editable area's id (to scroll to it, or to describe it from an error message). */
  id?: string;
};

/** Links open in a new tab, without the opener or a referrer. */
const LINK_REL = "noopener noreferrer nofollow";

/** What the editor holds: paragraphs, the toolbar's marks and lists, line breaks, links. */
const EXTENSIONS = [
  StarterKit.configure({
    heading: false,
    blockquote: false,
    code: false,
    codeBlock: false,
    horizontalRule: false,
    strike: false,
    underline: false,
    // No empty paragraph forced after a list: the stored HTML ends where the text does.
    trailingNode: false,
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: "https",
      protocols: ["mailto"],
      HTMLAttributes: { rel: LINK_REL, target: "_blank" },
    },
  }),
];

/** The editor's HTML as the caller stores it: "" for an empty document. */
function htmlOf(editor: Editor): string {
  return editor.isEmpty ? "" : editor.getHTML();
}

/**
 * A pointer press moves focus to the button: give it back to the text, so the user types on.
 * A keyboard press keeps focus in the toolbar, where the keyboard user is.
 */
function run(editor: Editor, event: PressEvent) {
  const chain = editor.chain();
  return event.pointerType === "keyboard" || event.pointerType === "virtual" ? chain : chain.focus();
}

export function RichTextEditor({ label, value, onChange, id }: RichTextEditorProps) {
  const { t } = useLingui();
  const labelId = useId();
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  /** The HTML the editor holds as far as the caller knows: what it was given or last sent. */
  const knownHtml = useRef(value);

  const editor = useEditor({
    extensions: EXTENSIONS,
    content: value,
    editorProps: {
      attributes: {
        class: "rich-text-editor__content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(id ? { id } : {}),
      },
    },
    onUpdate: ({ editor: updated }) => {
      const html = htmlOf(updated);
      knownHtml.current = html;
      onChangeRef.current(html);
    },
  });

  // A value set from outside (a reset after sending, a draft restored) replaces the text, and is
  // not a step Undo goes back over; the editor's own changes come back as the value it sent and
  // leave it alone (and the cursor where it is).
  useEffect(() => {
    if (value === knownHtml.current || editor.isDestroyed) return;
    knownHtml.current = value;
    editor.chain().setMeta("addToHistory", false).setContent(value, { emitUpdate: false }).run();
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      bulletList: current.isActive("bulletList"),
      orderedList: current.isActive("orderedList"),
      link: current.isActive("link"),
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });

  return (
    <div className="rich-text-editor">
      <span id={labelId} className="rac-field__label">
        {label}
      </span>
      <div className="rich-text-editor__frame">
        <Toolbar
          className="rich-text-editor__toolbar"
          aria-label={t({ id: "widget_editor_toolbar", message: `Formatting: ${label}` })}
        >
          <ToggleButton
            className="rich-text-editor__button"
            aria-label={t({ id: "widget_editor_bold", message: "Bold" })}
            isSelected={state.bold}
            onPress={(event) => run(editor, event).toggleBold().run()}
          >
            <EditorIcon name="bold" />
          </ToggleButton>
          <ToggleButton
            className="rich-text-editor__button"
            aria-label={t({ id: "widget_editor_italic", message: "Italic" })}
            isSelected={state.italic}
            onPress={(event) => run(editor, event).toggleItalic().run()}
          >
            <EditorIcon name="italic" />
          </ToggleButton>
          <span className="rich-text-editor__separator" aria-hidden="true" />
          <ToggleButton
            className="rich-text-editor__button"
            aria-label={t({ id: "widget_editor_bullet_list", message: "Bulleted list" })}
            isSelected={state.bulletList}
            onPress={(event) => run(editor, event).toggleBulletList().run()}
          >
            <EditorIcon name="bulletList" />
          </ToggleButton>
          <ToggleButton
            className="rich-text-editor__button"
            aria-label={t({ id: "widget_editor_ordered_list", message: "Numbered list" })}
            isSelected={state.orderedList}
            onPress={(event) => run(editor, event).toggleOrderedList().run()}
          >
            <EditorIcon name="orderedList" />
          </ToggleButton>
          <LinkButton editor={editor} isActive={state.link} />
          <span className="rich-text-editor__separator" aria-hidden="true" />
          <Button
            className="rich-text-editor__button"
            aria-label={t({ id: "widget_editor_undo", message: "Undo" })}
            isDisabled={!state.canUndo}
            onPress={(event) => run(editor, event).undo().run()}
          >
            <EditorIcon name="undo" />
          </Button>
          <Button
            className="rich-text-editor__button"
            aria-label={t({ id: "widget_editor_redo", message: "Redo" })}
            isDisabled={!state.canRedo}
            onPress={(event) => run(editor, event).redo().run()}
          >
            <EditorIcon name="redo" />
          </Button>
        </Toolbar>
        <EditorContent editor={editor} className="rich-text-editor__surface" />
      </div>
    </div>
  );
}

export default RichTextEditor;
