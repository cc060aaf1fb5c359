import type { Story, StoryDefault } from "@ladle/react";
import { lazy, Suspense } from "react";

export default { title: "Widgets / Photo capture" } satisfies StoryDefault;

// Loaded on demand, as the image question does (react-image-crop).
const PhotoEditModal = lazy(() =>
  import("./photo-edit-modal.tsx").then((module) => ({ default: module.PhotoEditModal })),
);

/** A 320 × 240 test card drawn as an SVG, so the story needs no photo. */
const SAMPLE_PHOTO = `data:image/svg+xml;utf8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="320" height="240" fill="#1f7a8c"/><circle cx="160" cy="120" r="70" fill="#f2a900"/></svg>',
)}`;

export const EditorOpen: Story = () => (
  <Suspense fallback={<p>Loading…</p>}>
    <PhotoEditModal imageUrl={SAMPLE_PHOTO} onCancel={() => undefined} onDone={() => undefined} />
  </Suspense>
);
