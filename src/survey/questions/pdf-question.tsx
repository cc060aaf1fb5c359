/**
 * PDF: every page of the document drawn at 600 px wide (spec 02 §9) with react-pdf, without the
 * annotation and text layers, and a link that opens the document itself (the way to zoom, and
 * the way screen readers read it). This module and its pdf.js worker load only when a pdf
 * question is shown: QuestionBody imports it lazily.
 */
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { Document, Page, pdfjs } from "react-pdf";
import type { QuestionProps } from "./question-props.ts";

// react-pdf asks for the worker to be set in the module that renders its components.
pdfjs.GlobalWorkerOptions.workerSrc = new URL(
  "pdfjs-dist/build/pdf.worker.min.mjs",
  import.meta.url,
).toString();

/** Width of a drawn PDF page, in CSS pixels (spec 02 §9). */
export const PDF_PAGE_WIDTH_PX = 600;

export function PdfQuestion({ question, labelId, describedBy }: QuestionProps) {
  const [pageCount, setPageCount] = useState(0);
  const url = question.url;

  if (!url) {
    return (
      <p className="pdf-question__message pdf-question__message--error">
        <Trans id="question_pdf_missing">This question has no document.</Trans>
      </p>
    );
  }

  return (
    <div className="pdf-question" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      <p className="pdf-question__open">
        <a href={url} target="_blank" rel="noopener noreferrer" className="button button--secondary">
          <Trans id="question_pdf_open">Open the PDF</Trans>
          <span className="visually-hidden">
            {" "}
            <Trans id="question_pdf_new_tab">(opens in a new tab)</Trans>
          </span>
        </a>
      </p>
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
    </div>
  );
}
