import type { Story, StoryDefault } from "@ladle/react";
import { Mascot } from "./mascot.tsx";

export default { title: "Widgets / Mascot" } satisfies StoryDefault;

export const Sizes: Story = () => (
  <div style={{ display: "flex", alignItems: "flex-end", gap: "1.5rem" }}>
    <Mascot size={48} />
    <Mascot size={96} />
    <Mascot size={160} />
  </div>
);

export const EmptyState: Story = () => (
  <div style={{ display: "grid", justifyItems: "center", textAlign: "center" }}>
    <Mascot size={120} className="mascot--lead" />
    <h1>No announcements yet</h1>
    <p>When the study team sends one, it will appear here.</p>
  </div>
);
