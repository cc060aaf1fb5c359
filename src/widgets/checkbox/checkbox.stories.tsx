import type { Story, StoryDefault } from "@ladle/react";
import { Checkbox } from "./checkbox.tsx";

export default { title: "Widgets / Checkbox" } satisfies StoryDefault;

export const Unchecked: Story = () => <Checkbox>Receive SMS alerts</Checkbox>;
export const Checked: Story = () => <Checkbox defaultSelected>Receive SMS alerts</Checkbox>;
export const Indeterminate: Story = () => <Checkbox isIndeterminate>All sites</Checkbox>;
export const Disabled: Story = () => <Checkbox isDisabled>Receive SMS alerts</Checkbox>;
