import type { Story, StoryDefault } from "@ladle/react";
import { lazy, Suspense, useState } from "react";
import type { CapturedPhoto } from "./photo-capture.tsx";

export default { title: "Widgets / Photo capture" } satisfies StoryDefault;

// Loaded on demand, as the image question is (react-image-crop).
const PhotoCapture = lazy(() =>
  import("./photo-capture.tsx").then((module) => ({ default: module.PhotoCapture })),
);
const PhotoEditModal = lazy(() =>
  import("./photo-edit-modal.tsx").then((module) => ({ default: module.PhotoEditModal })),
);

/** A test card drawn as an SVG, so the stories need no photo. */
function testCard(background: string, spot: string, width = 320, height = 240) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${background}"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="${spot}"/></svg>`;
}
const SAMPLE_PHOTO = `data:image/svg+xml;utf8,${encodeURIComponent(testCard("#1f7a8c", "#f2a900"))}`;
const cardBlob = (background: string, spot: string) =>
  new Blob([testCard(background, spot, 256, 256)], { type: "image/svg+xml" });

function Demo({ initial, readOnly = false }: { initial: CapturedPhoto[]; readOnly?: boolean }) {
  const [photos, setPhotos] = useState(initial);
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <p id="photo-label" style={{ fontWeight: 600 }}>
        Photograph the wound
      </p>
      <PhotoCapture photos={photos} onChange={setPhotos} labelId="photo-label" readOnly={readOnly} />
    </Suspense>
  );
}

export const Empty: Story = () => <Demo initial={[]} />;

export const WithPhotos: Story = () => (
  <Demo
    initial={[
      { name: "wound-1.jpeg", blob: cardBlob("#1f7a8c", "#f2a900") },
      { name: "wound-2.jpeg", blob: cardBlob("#0b4f6c", "#e7f5ec") },
    ]}
  />
);

export const Full: Story = () => (
  <Demo
    initial={[
      { name: "wound-1.jpeg", blob: cardBlob("#1f7a8c", "#f2a900") },
      { name: "wound-2.jpeg", blob: cardBlob("#0b4f6c", "#e7f5ec") },
      { name: "wound-3.jpeg", blob: undefined },
    ]}
  />
);

export const ReadOnly: Story = () => (
  <Demo initial={[{ name: "wound-1.jpeg", blob: cardBlob("#1f7a8c", "#f2a900") }]} readOnly />
);

export const EditorOpen: Story = () => (
  <Suspense fallback={<p>Loading…</p>}>
    <PhotoEditModal imageUrl={SAMPLE_PHOTO} onCancel={() => undefined} onDone={() => undefined} />
  </Suspense>
);
