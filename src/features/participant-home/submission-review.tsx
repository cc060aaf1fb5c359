/**
 * Review what was submitted: a completed instrument opens read-only, with what
 * the server holds of its submission (GET /control/participants/{id}/instrument_history/clinro):
 * the completer, the completion time, the definition's version and the scores the server
 * computed; then the answers as submitted (GET .../instrument_history/clinro/{submissionId}),
 * each question with its answer, or 'Skipped'.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { instrumentHistoryQuery, submissionAnswersQuery } from "../../api/instruments-api.ts";
import type { HistoryCompletedItem } from "../../../core/contracts/instrument-schemas.ts";
import type { AnswerRecord } from "../../../core/contracts/survey-answers.ts";
import { formatShortDate, formatTimeOfDay } from "../../i18n/format-date.ts";
import { Modal } from "../../widgets/modal/modal.tsx";

/** The submission of this delivery (the newest, when it was sent twice). */
export function submissionOf(
  completed: readonly HistoryCompletedItem[],
  instrumentId: number,
  instanceId: number,
): HistoryCompletedItem | undefined {
  return completed.find((item) => item.instrument_id === instrumentId && item.instance_id === instanceId);
}

export function SubmissionReview(props: {
  participantId: number;
  instrumentId: number;
  instanceId: number;
  name: string;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const history = useQuery(instrumentHistoryQuery(props.participantId));
  const item = history.data
    ? submissionOf(history.data.instruments.completed, props.instrumentId, props.instanceId)
    : undefined;
  const name = props.name;

  return (
    <Modal
      className="submission-review"
      title={t({ id: "submission_review_title", message: `${name}: submitted` })}
      onClose={props.onClose}
      actions={
        <button type="button" className="button button--primary" onClick={props.onClose}>
          <Trans id="submit_close">Close</Trans>
        </button>
      }
    >
      {item ? (
        <SubmissionFacts item={item} participantId={props.participantId} />
      ) : history.isError ? (
        <p role="status">
          <Trans id="submission_review_failed">
            What was submitted could not be loaded. Try again once connected.
          </Trans>
        </p>
      ) : history.data ? (
        <p role="status">
          <Trans id="submission_review_missing">The server holds no submission of this delivery yet.</Trans>
        </p>
      ) : (
        <p role="status">
          <Trans id="submission_review_loading">Loading the submission…</Trans>
        </p>
      )}
    </Modal>
  );
}

function SubmissionFacts({ item, participantId }: { item: HistoryCompletedItem; participantId: number }) {
  const date = formatShortDate(item.completion);
  const time = formatTimeOfDay(item.completion);
  const completer = item.completed_by;
  const version = item.version_number;
  return (
    <>
      <dl className="submission-review__facts">
        <dt>
          <Trans id="submission_review_completed">Completed</Trans>
        </dt>
        <dd>
          <span className="submission-review__when">
            {date} {time}
          </span>
        </dd>
        <dt>
          <Trans id="submission_review_by">By</Trans>
        </dt>
        <dd>{completer}</dd>
        <dt>
          <Trans id="submission_review_version">Version</Trans>
        </dt>
        <dd>{version}</dd>
      </dl>
      <h3 className="submission-review__heading">
        <Trans id="submission_review_scores">Scores</Trans>
      </h3>
      {item.scores.length === 0 ? (
        <p>
          <Trans id="submission_review_no_scores">This instrument has no scores.</Trans>
        </p>
      ) : (
        <ul className="submission-review__scores">
          {item.scores.map((score) => (
            <li key={score.id}>
              <span>{score.name || score.id}</span> <strong>{score.final_value}</strong>
            </li>
          ))}
        </ul>
      )}
      <h3 className="submission-review__heading">
        <Trans id="submission_review_answers">Answers</Trans>
      </h3>
      <SubmittedAnswers participantId={participantId} submissionId={item.submission_id} />
      <p className="submission-review__note">
        <Trans id="submission_review_read_only_answers">Submitted answers cannot be changed.</Trans>
      </p>
    </>
  );
}

/** The records of the questions shown, in order: the question, then its answer or 'Skipped'. */
function SubmittedAnswers({ participantId, submissionId }: { participantId: number; submissionId: number }) {
  const { t } = useLingui();
  const submission = useQuery(submissionAnswersQuery(participantId, submissionId));
  if (!submission.data) {
    return submission.isError ? (
      <p role="status">
        <Trans id="submission_review_answers_failed">
          The answers could not be loaded. Try again once connected.
        </Trans>
      </p>
    ) : (
      <p role="status">
        <Trans id="submission_review_answers_loading">Loading the answers…</Trans>
      </p>
    );
  }
  const shown = submission.data.answers.filter((record) => record.state !== "REQUIRED");
  return (
    <div
      className="submission-review__answers"
      role="region"
      aria-label={t({ id: "submission_review_answers_region", message: "Submitted answers" })}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
    >
      <dl>
        {shown.map((record) => (
          <div key={record.id} className="submission-review__answer">
            <dt>{record.label || record.name}</dt>
            <dd>
              <AnswerText record={record} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function AnswerText({ record }: { record: AnswerRecord }) {
  if (record.state === "SKIPPED" || record.answer.length === 0) {
    return (
      <span className="submission-review__skipped">
        <Trans id="submission_review_skipped">Skipped</Trans>
      </span>
    );
  }
  return <>{record.answer.map((entry) => entry.label || String(entry.value ?? "")).join(", ")}</>;
}
