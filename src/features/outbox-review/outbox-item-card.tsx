import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { formatDateTime } from "../../i18n/format-date.ts";
import { retryNow } from "../../outbox/flusher.ts";
import { formatBytes } from "./format-item.ts";
import { KIND_TEXT, OWN_LABEL_TEXT, STATUS_TEXT, STATUS_WORD_TEXT, statusWord } from "./item-texts.ts";
import { canRetry, type ReviewItem } from "./visible-items.ts";
import { needsSigningAgain } from "../../outbox/consent-resign.ts";
import { SignAgainButton } from "./sign-again-button.tsx";

type OutboxItemCardProps = {
  item: ReviewItem;
  /** For a file that goes with a form waiting here: the form's name. */
  formLabel?: string;
  /** Retry all is sending this page's items. */
  sendingAll?: boolean;
  onExport: (item: ReviewItem) => void;
  onDiscard: (item: ReviewItem) => void;
};

/**
 * One queued write: its name, whether it is waiting, sending or failed and why, what it is in a
 * coordinator's words, its size, and what can be done about it.
 */
export function OutboxItemCard({
  item,
  formLabel,
  sendingAll = false,
  onExport,
  onDiscard,
}: OutboxItemCardProps) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const [retrying, setRetrying] = useState(false);

  const retry = async () => {
    if (retrying) return;
    setRetrying(true);
    try {
      await retryNow([item.id]);
    } finally {
      setRetrying(false);
    }
  };

  const error = item.lastError;
  const status = error?.status;
  const message = error?.message ?? "";
  const lastError = !error
    ? t({ id: "outbox_error_none", message: "None" })
    : error.kind === "network"
      ? t({ id: "outbox_error_network", message: "No connection to the server" })
      : t({ id: "outbox_error_http", message: `The server answered ${status}: ${message}` });
  const ownLabel = OWN_LABEL_TEXT[item.kind];
  const label = ownLabel ? i18n._(ownLabel) : item.label;
  const word = statusWord(
    item.status,
    retrying || (sendingAll && canRetry(item) && item.state === "pending"),
  );

  const request = item.own ? item.request : undefined;
  const signAgain = request && needsSigningAgain({ ...item, request }) ? { ...item, request } : undefined;

  return (
    <li className={`outbox-item outbox-item--${item.status}`}>
      <div className="outbox-item__head">
        <h3 className="outbox-item__label">{label}</h3>
        <span className={`outbox-status outbox-status--${word}`}>{i18n._(STATUS_WORD_TEXT[word])}</span>
      </div>
      <p className="outbox-item__why">{i18n._(STATUS_TEXT[item.status])}</p>
      {signAgain ? (
        <p className="outbox-item__why">
          <Trans id="outbox_sign_again_why">
            Your password has changed since you signed this consent, so the server could not accept your
            signature. The participant's signature and every answer are kept on this device: sign again with
            your current password to send it.
          </Trans>
        </p>
      ) : null}
      <dl className="outbox-item__facts">
        <div>
          <dt>
            <Trans id="outbox_field_what">What</Trans>
          </dt>
          <dd>{i18n._(KIND_TEXT[item.kind])}</dd>
        </div>
        {formLabel ? (
          <div>
            <dt>
              <Trans id="outbox_field_goes_with">Goes with</Trans>
            </dt>
            <dd>{formLabel}</dd>
          </div>
        ) : null}
        <div>
          <dt>
            <Trans id="outbox_field_size">Size</Trans>
          </dt>
          <dd>{formatBytes(item.sizeBytes, i18n.locale)}</dd>
        </div>
        <div>
          <dt>
            <Trans id="outbox_field_created">Created</Trans>
          </dt>
          <dd>{formatDateTime(item.createdAt)}</dd>
        </div>
        <div>
          <dt>
            <Trans id="outbox_field_tries">Tries</Trans>
          </dt>
          <dd>{item.attempts}</dd>
        </div>
        {item.own ? null : (
          <div>
            <dt>
              <Trans id="outbox_field_made_by">Made by</Trans>
            </dt>
            <dd>{item.username}</dd>
          </div>
        )}
        <div className="outbox-item__error">
          <dt>
            <Trans id="outbox_field_last_problem">Last problem</Trans>
          </dt>
          <dd>{lastError}</dd>
        </div>
      </dl>
      {canRetry(item) || item.canExportAndDiscard ? (
        <div className="outbox-item__actions">
          {signAgain ? <SignAgainButton item={signAgain} label={label} /> : null}
          {canRetry(item) ? (
            <button
              type="button"
              className="button button--secondary"
              aria-disabled={retrying}
              aria-label={
                retrying ? undefined : t({ id: "outbox_retry_now_named", message: `Retry now: ${label}` })
              }
              onClick={() => void retry()}
            >
              {retrying ? (
                <Trans id="outbox_retrying">Retrying…</Trans>
              ) : (
                <Trans id="outbox_retry_now">Retry now</Trans>
              )}
            </button>
          ) : null}
          {item.canExportAndDiscard &&
          item.kind === "enrolment" &&
          item.studyId !== undefined &&
          item.siteId !== undefined &&
          item.participantId !== undefined ? (
            // A refused enrolment is corrected on the participant's page, where what waits for it shows.
            <Link
              className="button button--secondary"
              to="/studies/$studyId/sites/$siteId/participants/$participantId"
              params={{ studyId: item.studyId, siteId: item.siteId, participantId: item.participantId }}
              aria-label={t({ id: "outbox_correct_enrolment_named", message: `Correct: ${label}` })}
            >
              <Trans id="outbox_correct_enrolment">Correct</Trans>
            </Link>
          ) : null}
          {item.canExportAndDiscard ? (
            <>
              <button
                type="button"
                className="button button--secondary"
                aria-label={t({ id: "outbox_export_named", message: `Export: ${label}` })}
                onClick={() => onExport(item)}
              >
                <Trans id="outbox_export">Export</Trans>
              </button>
              <button
                type="button"
                className="button button--danger"
                aria-label={t({ id: "outbox_discard_named", message: `Discard: ${label}` })}
                onClick={() => onDiscard(item)}
              >
                <Trans id="outbox_discard">Discard</Trans>
              </button>
            </>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
