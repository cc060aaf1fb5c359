import type { Story, StoryDefault } from "@ladle/react";
import { AutocompleteSearch } from "./autocomplete-search.tsx";

export default { title: "Widgets / Autocomplete search" } satisfies StoryDefault;

const items = [
  { id: "1", label: "Adverse events form" },
  { id: "2", label: "Concomitant medication" },
  { id: "3", label: "Vital signs" },
];

export const Empty: Story = () => (
  <AutocompleteSearch label="Find a form" items={items} onSelect={() => undefined} />
);
export const NoItems: Story = () => (
  <AutocompleteSearch label="Find a form" items={[]} onSelect={() => undefined} />
);
