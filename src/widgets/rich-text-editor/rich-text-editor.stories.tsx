import type { Story, StoryDefault } from "@ladle/react";
import { lazy, Suspense, useState } from "react";

export default { title: "Widgets / Rich text editor" } satisfies StoryDefault;

// Loaded on demand, as the pages that write rich text do (TipTap and ProseMirror).
const RichTextEditor = lazy(() => import("./rich-text-editor.tsx"));

function Demo({ initial }: { initial: string }) {
  const [html, setHtml] = useState(initial);
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <div style={{ display: "grid", gap: "1rem", maxWidth: "48rem" }}>
        <RichTextEditor label="Announcement" value={html} onChange={setHtml} />
        <details>
          <summary>HTML sent to onChange</summary>
          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{html || "(empty)"}</pre>
        </details>
      </div>
    </Suspense>
  );
}

export const Empty: Story = () => <Demo initial="" />;

export const WithContent: Story = () => (
  <Demo
    initial={
      "<p>The <strong>site visit</strong> moves to <em>Thursday</em>. Before then:</p>" +
      "<ul><li><p>confirm each participant's slot</p></li><li><p>print the consent forms</p></li></ul>" +
      "<ol><li><p>Check the schedule</p></li><li><p>Reply to the monitor</p></li></ol>" +
      '<p>Details on <a href="https://example.org/visit" target="_blank" rel="noopener noreferrer nofollow">the study page</a>.</p>'
    }
  />
);
