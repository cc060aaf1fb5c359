import type { Story, StoryDefault } from "@ladle/react";
import { Button } from "../button/button.tsx";
import { Tooltip } from "./tooltip.tsx";

export default { title: "Widgets / Tooltip" } satisfies StoryDefault;

export const OnFocus: Story = () => (
  <div style={{ paddingTop: "3rem" }}>
    <Tooltip content="Sends the consent by email">
      <Button variant="secondary">Share</Button>
    </Tooltip>
  </div>
);
