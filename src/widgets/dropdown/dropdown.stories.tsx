import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { Dropdown } from "./dropdown.tsx";

export default { title: "Widgets / Dropdown" } satisfies StoryDefault;

const options = [
  { value: "1", label: "Site 1 — Boston" },
  { value: "2", label: "Site 2 — Madrid" },
  { value: "3", label: "Site 3 — Lyon" },
];

export const Closed: Story = () => {
  const [value, setValue] = useState<string | null>(null);
  return (
    <Dropdown label="Site" placeholder="Choose a site" options={options} value={value} onChange={setValue} />
  );
};
export const WithValue: Story = () => {
  const [value, setValue] = useState<string | null>("2");
  return <Dropdown label="Site" options={options} value={value} onChange={setValue} />;
};
export const Disabled: Story = () => (
  <Dropdown label="Site" options={options} value="1" onChange={() => undefined} isDisabled />
);
