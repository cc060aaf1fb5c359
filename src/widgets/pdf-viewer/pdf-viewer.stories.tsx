import type { Story, StoryDefault } from "@ladle/react";
import { lazy, Suspense } from "react";

export default { title: "Widgets / PDF viewer" } satisfies StoryDefault;

// Loaded on demand, as the pdf question does.
const PdfViewer = lazy(() => import("./pdf-viewer.tsx").then((module) => ({ default: module.PdfViewer })));

/** A one-page PDF that says 'Consent', made by hand so the story needs no file. */
const SAMPLE_PDF = `data:application/pdf;base64,${btoa(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n" +
    "4 0 obj<</Length 44>>stream\nBT /F1 24 Tf 72 72 Td (Consent) Tj ET\nendstream endobj\n" +
    "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF",
)}`;

export const OnePage: Story = () => (
  <Suspense fallback={<p>Loading…</p>}>
    <PdfViewer url={SAMPLE_PDF} />
  </Suspense>
);
export const Unreadable: Story = () => (
  <Suspense fallback={<p>Loading…</p>}>
    <PdfViewer url="data:application/pdf;base64,bm90IGEgcGRm" />
  </Suspense>
);
