/**
 * The PDF viewer (spec 02 section 9): every page of a document drawn at 600 px wide with
 * react-pdf, without the annotation and text layers. Heavy (pdf.js and its worker): import this
 * module lazily.
 */
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { Document, Page, pdfjs } from "react-pdf";

// react-pdf asks for the worker to be set in the module that renders its components.
pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  "pdfjs-dist/build/pdf.worker.min.mjs",
  import.meta.url,
).toString();

/** Width of a drawn PDF page, in CSS pixels (spec 02 section 9). */
export const PDF_PAGE_WIDTH_PX = 600;

/**
 * url: the document's address, or the document itself as a Blob (read in the page: the
 * Content-Security-Policy lets pdf.js fetch no blob: URL).
 */
export function PdfViewer({ url }: { url: string | Blob }) {
  const [pageCount, setPageCount] = useState(0);
  return (
    <Document
      className="pdf-question__document"
      file={url}
      suspense={false}
      onLoadSuccess={(document) => setPageCount(document.numPages)}
      loading={
        <p className="pdf-question__message" role="status">
          <Trans id="question_pdf_loading">Loading the document…</Trans>
        </p>
      }
      error={
        <p className="pdf-question__message pdf-question__message--error" role="alert">
          <Trans id="question_pdf_error">The document could not be shown. Open the PDF to read it.</Trans>
        </p>
      }
    >
      {Array.from({ length: pageCount }, (_, index) => (
        <Page
          key={index + 1}
          className="pdf-question__page"
          pageNumber={index + 1}
          width={PDF_PAGE_WIDTH_PX}
          renderAnnotationLayer={false}
          renderTextLayer={false}
          loading={
            <p className="pdf-question__message">
              <Trans id="question_pdf_page_loading">Loading the page…</Trans>
            </p>
          }
        />
      ))}
    </Document>
  );
}
