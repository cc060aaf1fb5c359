/**
 * PDF: every page of the document drawn at 600 px wide (spec 02 §9) with react-pdf, without the
 * annotation and text layers, and a link that opens the document itself (the way to zoom, and
 * the way screen readers read it). This module and its pdf.js worker load only when a pdf
 * question is shown: QuestionBody imports it lazily.
 */
import { Trans } from "@lingui/react/macro";
import { PdfViewer } from "../../widgets/pdf-viewer/pdf-viewer.tsx";
import type { QuestionProps } from "./question-props.ts";

export function PdfQuestion({ question, labelId, describedBy }: QuestionProps) {
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
      <PdfViewer url={url} />
    </div>
  );
}
