import type { Story, StoryDefault } from "@ladle/react";
import { AccessDeniedPanel } from "./access-denied-panel.tsx";

export default { title: "Widgets / Access denied" } satisfies StoryDefault;

export const Participant: Story = () => (
  <AccessDeniedPanel
    message="It looks like you don't have access to this participant"
    actions={
      <button type="button" className="button button--primary">
        Back to studies
      </button>
    }
  >
    <p>Log in with another account.</p>
  </AccessDeniedPanel>
);
