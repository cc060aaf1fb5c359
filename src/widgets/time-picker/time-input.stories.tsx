import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { TimeInput } from "./time-input.tsx";
import type { TimeOfDay } from "./time-format.ts";

export default { title: "Widgets / Time picker" } satisfies StoryDefault;

function Demo({ format }: { format: "24h" | "12h" }) {
  const [value, setValue] = useState<TimeOfDay | null>({ hours: 14, minutes: 5 });
  return <TimeInput label="Time taken" format={format} value={value} onChange={setValue} />;
}

export const TwentyFourHour: Story = () => <Demo format="24h" />;
export const TwelveHour: Story = () => <Demo format="12h" />;
export const Empty: Story = () => (
  <TimeInput label="Time taken" format="24h" value={null} onChange={() => undefined} />
);
