import type { Story, StoryDefault } from "@ladle/react";
import { DateInput } from "./date-input.tsx";

export default { title: "Widgets / Date input" } satisfies StoryDefault;

const weekend = ({ year, month, day }: { year: number; month: number; day: number }) =>
  [0, 6].includes(new Date(Date.UTC(year, month - 1, day)).getUTCDay());

export const Empty: Story = () => <DateInput label="Visit date" locale="en-US" onSubmit={() => undefined} />;
export const Valid: Story = () => (
  <DateInput label="Visit date" locale="en-US" defaultText="3/4/2025" onSubmit={() => undefined} />
);
export const Invalid: Story = () => (
  <DateInput label="Visit date" locale="en-US" defaultText="13/45/2025" onSubmit={() => undefined} />
);
export const DisabledDay: Story = () => (
  <DateInput
    label="Visit date (weekdays)"
    locale="en-US"
    defaultText="3/1/2025"
    isDayDisabled={weekend}
    onSubmit={() => undefined}
  />
);
export const SpanishFormat: Story = () => (
  <DateInput label="Visit date" locale="es" defaultText="31/1/25" onSubmit={() => undefined} />
);
