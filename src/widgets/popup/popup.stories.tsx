import type { Story, StoryDefault } from "@ladle/react";
import { Popup } from "./popup.tsx";

export default { title: "Widgets / Popup" } satisfies StoryDefault;

export const Closed: Story = () => (
  <Popup trigger="Details" title="Visit details">
    <p>Recorded visit, 30 minutes.</p>
  </Popup>
);
export const Open: Story = () => (
  <Popup trigger="Details" title="Visit details" isOpen onOpenChange={() => undefined}>
    <p>Recorded visit, 30 minutes.</p>
  </Popup>
);
