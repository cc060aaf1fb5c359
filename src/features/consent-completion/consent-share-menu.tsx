/**
 * The consent prompt's share button (spec 02 sections 2 and 7): print the consent (its PDF,
 * fetched as a blob and printed from a hidden frame) or email it to the participant ('email
 * sent'). At the prompt nothing is signed yet, so both carry the print-to-sign document
 * (pdf_type=print_to_sign): the consent text the participant can read, with the lines to sign
 * on paper where a site signs on paper.
 *
 * Email asks first, naming the participant and the address it goes to, and its toast
 * says to whom it was sent; a participant without an address is told so, with nothing sent.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState } from "react";
import { fetchConsentPdf, useSendConsentEmail } from "../../api/consents-api.ts";
import type { ConsentPerson } from "../../../core/contracts/consent-schemas.ts";
import { Modal } from "../../widgets/modal/modal.tsx";
import { printBlob } from "../../widgets/print/print-blob.ts";

export function ConsentShareMenu(props: {
  consentId: number;
  version: number;
  participantId: number;
  /** The participant the email goes to: named in the confirmation and the toast. */
  participant: Pick<ConsentPerson, "firstname" | "lastname" | "subject_id" | "email">;
}) {
  const { t } = useLingui();
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
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
  const name = `${props.participant.firstname} ${props.participant.lastname}`.trim();
  const subjectId = props.participant.subject_id;
  const address = props.participant.email?.trim() ?? "";
  const askEmail = () => {
    if (busy) return;
    closeMenu();
    setConfirming(true);
  };
  const closeConfirm = () => {
    setConfirming(false);
    toggleRef.current?.focus();
  };
  // The request module shows 'Email sent to …' or the failure's toast.
  const email = () => {
    closeConfirm();
    if (busy || address === "") return;
    sendEmail.mutate({
      consentId: props.consentId,
      participantId: props.participantId,
      version: props.version,
      printToSign: true,
      recipient: { name, email: address },
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
          <button type="button" className="button button--secondary" onClick={askEmail}>
            <Trans id="consent_share_email">Email</Trans>
          </button>
        </li>
      </ul>
      {confirming && address !== "" ? (
        <Modal
          title={t({ id: "consent_email_confirm_title", message: "Email the consent?" })}
          onClose={closeConfirm}
          returnFocusTo={toggleRef}
          actions={
            <>
              <button type="button" className="button button--secondary" onClick={closeConfirm}>
                <Trans id="widget_modal_cancel">Cancel</Trans>
              </button>
              <button type="button" className="button button--primary" onClick={email}>
                <Trans id="consent_email_confirm_send">Send email</Trans>
              </button>
            </>
          }
        >
          <p>
            <Trans id="consent_email_confirm_body">
              The consent, to read and to sign on paper, is sent to {name} (
              <span className="consent-share__id">{subjectId}</span>) at <strong>{address}</strong>.
            </Trans>
          </p>
        </Modal>
      ) : null}
      {confirming && address === "" ? (
        <Modal
          title={t({ id: "consent_email_no_address_title", message: "No email address" })}
          onClose={closeConfirm}
          returnFocusTo={toggleRef}
          actions={
            <button type="button" className="button button--primary" onClick={closeConfirm}>
              <Trans id="submit_close">Close</Trans>
            </button>
          }
        >
          <p>
            <Trans id="consent_email_no_address_body">
              {name} (<span className="consent-share__id">{subjectId}</span>) has no email address, so the
              consent cannot be emailed. Print it instead.
            </Trans>
          </p>
        </Modal>
      ) : null}
    </div>
  );
}
