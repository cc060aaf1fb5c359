import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { FilterBox } from "./filter-box.tsx";

export default { title: "Widgets / Filter box" } satisfies StoryDefault;

const choices = [
  { value: "signatureRequired", label: "Your signature is required" },
  { value: "pendingCompletion", label: "Waiting for the participant" },
  { value: "completed", label: "Completed" },
  { value: "declined", label: "Declined" },
];

function Demo({ initial }: { initial: readonly string[] }) {
  const [applied, setApplied] = useState(initial);
  return (
    <>
      <FilterBox choicesLabel="Status" choices={choices} applied={applied} onApply={setApplied} />
      <p>Applied: {applied.length === 0 ? "none" : applied.join(", ")}</p>
    </>
  );
}

export const NothingApplied: Story = () => <Demo initial={[]} />;
export const FilterApplied: Story = () => <Demo initial={["completed"]} />;
