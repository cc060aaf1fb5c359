/**
 * The consent prompt's share button (spec 02 sections 2 and 7): print the consent (its PDF,
 * fetched as a blob and printed from a hidden frame) or email it to the participant ('email
 * sent'). At the prompt nothing is signed yet, so both carry the print-to-sign document
 * (pdf_type=print_to_sign): the consent text the participant can read, with the lines to sign
 * on paper where a site signs on paper.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState } from "react";
import { fetchConsentPdf, useSendConsentEmail } from "../../api/consents-api.ts";
import { printBlob } from "../../widgets/print/print-blob.ts";

export function ConsentShareMenu(props: { consentId: number; version: number; participantId: number }) {
  const { t } = useLingui();
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const [printing, setPrinting] = useState(false);
  const sendEmail = useSendConsentEmail();
  const busy = printing || sendEmail.isPending;
  const toggleRef = useRef<HTMLButtonElement>(null);

  const closeMenu = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };

  // Printing reads the PDF (no write): fetched here and printed from a hidden frame.
  const print = async () => {
    if (busy) return;
    setPrinting(true);
    closeMenu();
    try {
      printBlob(
        await fetchConsentPdf({ consentId: props.consentId, version: props.version, printToSign: true }),
      );
    } catch {
      // The request module showed the failure's toast.
    } finally {
      setPrinting(false);
    }
  };
  // The request module shows 'Email sent' or the failure's toast.
  const email = () => {
    if (busy) return;
    closeMenu();
    sendEmail.mutate({
      consentId: props.consentId,
      participantId: props.participantId,
      version: props.version,
      printToSign: true,
    });
  };

  return (
    <div className="consent-share">
      <button
        ref={toggleRef}
        type="button"
        className="button button--secondary consent-share__toggle"
        aria-expanded={open}
        aria-controls={menuId}
        disabled={busy}
        onClick={() => setOpen((current) => !current)}
      >
        <Trans id="consent_share">Share</Trans>
      </button>
      <ul
        id={menuId}
        className="consent-share__menu"
        hidden={!open}
        aria-label={t({ id: "consent_share_menu", message: "Share the consent" })}
      >
        <li>
          <button type="button" className="button button--secondary" onClick={() => void print()}>
            <Trans id="consent_share_print">Print</Trans>
          </button>
        </li>
        <li>
          <button type="button" className="button button--secondary" onClick={email}>
            <Trans id="consent_share_email">Email</Trans>
          </button>
        </li>
      </ul>
    </div>
  );
}
