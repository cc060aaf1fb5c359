import type { Story, StoryDefault } from "@ladle/react";
import { VideoContainer } from "./video-container.tsx";
import "./video-room.css";

export default { title: "Widgets / Video container" } satisfies StoryDefault;

const Picture = () => (
  <div
    style={{
      width: "100%",
      height: "100%",
      minHeight: 120,
      background: "#1b2a33",
      color: "#fff",
      padding: 8,
    }}
  >
    Participant video
  </div>
);

export const FullSize: Story = () => (
  <VideoContainer minimized={false} label="Video visit">
    <Picture />
  </VideoContainer>
);
export const Minimised: Story = () => (
  <VideoContainer minimized label="Video visit">
    <Picture />
  </VideoContainer>
);
