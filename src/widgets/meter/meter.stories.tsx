import type { Story, StoryDefault } from "@ladle/react";
import { PercentMeter } from "./percent-meter.tsx";
import { RatioMeter } from "./ratio-meter.tsx";

export default { title: "Widgets / Meters" } satisfies StoryDefault;

export const PercentEmpty: Story = () => <PercentMeter label="Instruments completed" ratio={0} />;
export const PercentHalf: Story = () => <PercentMeter label="Instruments completed" ratio={0.5} />;
export const PercentTwoThirds: Story = () => <PercentMeter label="Instruments completed" ratio={2 / 3} />;
export const PercentFull: Story = () => <PercentMeter label="Instruments completed" ratio={1} />;
export const RatioSome: Story = () => <RatioMeter label="Instruments completed" done={3} total={8} />;
export const RatioZeroTotal: Story = () => <RatioMeter label="Instruments completed" done={0} total={0} />;
