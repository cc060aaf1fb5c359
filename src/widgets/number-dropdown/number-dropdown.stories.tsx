import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { NumberDropdown } from "./number-dropdown.tsx";

export default { title: "Widgets / Number dropdown" } satisfies StoryDefault;

export const Empty: Story = () => {
  const [value, setValue] = useState<number | null>(null);
  return <NumberDropdown label="Visible days" options={[1, 2, 3, 7, 14]} value={value} onChange={setValue} />;
};
export const WithValue: Story = () => {
  const [value, setValue] = useState<number | null>(7);
  return <NumberDropdown label="Visible days" options={[1, 2, 3, 7, 14]} value={value} onChange={setValue} />;
};
export const NegativesAllowed: Story = () => {
  const [value, setValue] = useState<number | null>(-2);
  return (
    <NumberDropdown
      label="Offset (days)"
      options={[-7, -1, 0, 1, 7]}
      value={value}
      onChange={setValue}
      allowNegative
    />
  );
};
