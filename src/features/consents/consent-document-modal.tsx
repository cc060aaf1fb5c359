/**
 * 'See consent': the completed consent opens in the app's PDF viewer (spec 02
 * section 9: react-pdf, pages 600 px wide), in a dialog that names the participant, with Download
 * and Print, instead of a silent download. The viewer (pdf.js and its worker) loads only here.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { lazy, Suspense, type RefObject } from "react";
import { downloadBlob } from "../../widgets/download/download-blob.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { printBlob } from "../../widgets/print/print-blob.ts";

const PdfViewer = lazy(() =>
  import("../../widgets/pdf-viewer/pdf-viewer.tsx").then((module) => ({ default: module.PdfViewer })),
);

export type ConsentDocument = {
  blob: Blob;
  fileName: string;
  /** The consent's title. */
  title: string;
  participantName: string;
  subjectId: string;
};

export function ConsentDocumentModal({
  document,
  onClose,
  returnFocusTo,
}: {
  document: ConsentDocument;
  onClose: () => void;
  /** The 'See consent' button: it was disabled while the PDF downloaded, so it lost the focus. */
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const { t } = useLingui();
  const { title, participantName, subjectId } = document;

  return (
    <Modal
      className="consent-document"
      title={t({ id: "consent_document_title", message: `${title}: ${participantName}` })}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => downloadBlob(document.fileName, document.blob)}
          >
            <Trans id="consent_document_download">Download</Trans>
          </button>
          <button type="button" className="button button--secondary" onClick={() => printBlob(document.blob)}>
            <Trans id="consent_document_print">Print</Trans>
          </button>
          <button type="button" className="button button--primary" onClick={onClose}>
            <Trans id="submit_close">Close</Trans>
          </button>
        </>
      }
    >
      <p className="consent-document__facts">
        <Trans id="consent_document_facts">
          The completed consent of {participantName} (
          <span className="consent-document__id">{subjectId}</span>), as signed.
        </Trans>
      </p>
      {/* A scrolling region is focusable, so the keyboard scrolls it (axe: scrollable-region-focusable). */}
      <div
        className="consent-document__pages"
        data-testid="consent-document-pages"
        role="region"
        aria-label={t({ id: "consent_document_pages", message: "Consent pages" })}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
      >
        <Suspense
          fallback={
            <p className="pdf-question__message" role="status">
              <Trans id="question_pdf_loading">Loading the document…</Trans>
            </p>
          }
        >
          <PdfViewer url={document.blob} />
        </Suspense>
      </div>
    </Modal>
  );
}
