import type { Story, StoryDefault } from "@ladle/react";
import { Button } from "./button.tsx";

export default { title: "Widgets / Button" } satisfies StoryDefault;

export const Primary: Story = () => <Button>Save</Button>;
export const Secondary: Story = () => <Button variant="secondary">Cancel</Button>;
export const Danger: Story = () => <Button variant="danger">Delete</Button>;
export const Disabled: Story = () => <Button isDisabled>Save</Button>;
export const DisabledSecondary: Story = () => (
  <Button variant="secondary" isDisabled>
    Cancel
  </Button>
);
export const DisabledDanger: Story = () => (
  <Button variant="danger" isDisabled>
    Delete
  </Button>
);
