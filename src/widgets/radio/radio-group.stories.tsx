import type { Story, StoryDefault } from "@ladle/react";
import { RadioGroup } from "./radio-group.tsx";

export default { title: "Widgets / Radio" } satisfies StoryDefault;

const options = [
  { value: "draw", label: "Draw" },
  { value: "type", label: "Type" },
  { value: "camera", label: "Camera" },
];

export const NoneChosen: Story = () => <RadioGroup label="Signature mode" options={options} />;
export const Chosen: Story = () => (
  <RadioGroup label="Signature mode" options={options} defaultValue="type" />
);
export const OneDisabled: Story = () => (
  <RadioGroup
    label="Signature mode"
    description="The camera is not available on this device."
    options={options.map((option) => ({ ...option, disabled: option.value === "camera" }))}
    defaultValue="draw"
  />
);
