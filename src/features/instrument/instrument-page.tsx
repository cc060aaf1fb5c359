/**
 * The instrument route (spec 02 section 2): downloads the definition (JSON or zip), checks the
 * user may administer it, runs the survey, and submits through the outbox: the photos first,
 * then the submission, with the network-error and failed-files modals over the queued items.
 * Events: seen on opening, parsingFailed, downloadFailed, cancelled on quit, submitFailed when
 * a send fails, completed when the server stored the submission.
 */
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { instrumentListKeys } from "../../api/instruments-api.ts";
import { participantKeys, participantQuery } from "../../api/participants-api.ts";
import { isProvisionalParticipantId } from "../../outbox/provisional-participants.ts";
import { useStudySiteNames, type RecordFacts } from "../../survey/runner/record-context.tsx";
import { surveyDefinitionQuery } from "../../api/survey-definition-api.ts";
import { ApiError } from "../../api/request.ts";
import { DefinitionFileError } from "../../survey/read-definition-body.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { draftKeyFor, removeDraft } from "../../outbox/drafts.ts";
import { enqueueSubmissionWithUploads, eventsWrite, type WriteContext } from "../../outbox/enqueue.ts";
import { enqueueEvent } from "../../outbox-ui/enqueue-event.ts";
import { NotStoredModal } from "../../outbox-ui/not-stored-modal.tsx";
import { describeStoreError } from "../../outbox-ui/store-error.ts";
import { SubmissionStatusModal } from "../../outbox-ui/submission-status-modal.tsx";
import { downloadAnswers } from "../../survey/runner/answers-export.ts";
import type { EventType } from "../../../core/contracts/events.ts";
import type { Question, SurveyDefinition } from "../../../core/contracts/survey-definition.ts";
import { definitionKeyOf, type SurveyDraft } from "../../survey/runner/survey-draft.ts";
import { SurveyRunner, type SurveyResult } from "../../survey/runner/survey-runner.tsx";
import { useSurveyDraft, type DraftStatus } from "../../survey/runner/use-survey-draft.ts";
import { showToast, TOAST_ERROR_MS, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { ConsentFirstNotice } from "../../widgets/consent-first/consent-first-notice.tsx";
import { useConsentLock } from "../../outbox-ui/use-consent-lock.ts";
import { instrumentEvent, type InstrumentEventContext } from "./instrument-events.ts";
import { instrumentSubmissionWrites } from "./submit-instrument.ts";
import { mayAdminister } from "../../../core/contracts/instrument-permission.ts";
import { DraftOpenElsewhere } from "../../survey/runner/draft-open-elsewhere.tsx";

const submittedMessage = msg({ id: "instrument_submitted", message: "Instrument submitted." });
/** Spec 02 section 8: the finished instrument could not be stored on this device (outbox). */
const savingFailedMessage = msg({ id: "instrument_saving_failed", message: "Saving instrument failed" });
const savedForLaterMessage = msg({
  id: "instrument_saved_for_later",
  message: "The instrument is saved on this device and is sent when the connection is back.",
});

export type InstrumentPageProps = {
  studyId: number;
  siteId: number;
  participantId: number;
  instrumentId: number;
  instrument: string;
  /** The route's query string, passed through to the definition call. */
  searchStr: string;
  /** The delivery being completed (?instance_id= from the participant page). */
  instanceId: number | undefined;
};

function useInstrumentEvents(eventContext: InstrumentEventContext, write: WriteContext | null) {
  const { t } = useLingui();
  return useCallback(
    (type: EventType, extra?: Record<string, unknown>) => {
      if (!write) return;
      void enqueueEvent(
        eventsWrite(
          [instrumentEvent(type, eventContext, new Date(), extra)],
          t({ id: "outbox_label_instrument_events", message: "Instrument events" }),
        ),
        write,
      );
    },
    [eventContext, write, t],
  );
}

/**
 * Whose record this is: the participant as the participant page read them (kept on the device;
 * not fetched again here), the study and site from the user's permissions. A participant
 * enrolled on this device (not known to the server yet) is named by the study and site only.
 */
function useInstrumentRecord(studyId: number, siteId: number, participantId: number): RecordFacts {
  const participant = useQuery({
    ...participantQuery(studyId, siteId, participantId),
    enabled: !isProvisionalParticipantId(participantId),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const names = useStudySiteNames(studyId, siteId);
  const data = participant.data;
  return {
    participantName: data ? `${data.fname} ${data.lname}`.trim() : "",
    subjectId: data?.subject_id ?? "",
    ...names,
  };
}

export function InstrumentPage(props: InstrumentPageProps) {
  const { studyId, siteId, participantId, instrumentId, instrument, searchStr, instanceId } = props;
  const { t } = useLingui();
  const user = useStoredUser();
  const definition = useQuery(surveyDefinitionQuery({ studyId, instrumentId, instrument, searchStr }));
  const write = useMemo<WriteContext | null>(
    () => (user ? { userId: user.id, username: user.username, studyId, siteId, participantId } : null),
    [user, studyId, siteId, participantId],
  );
  const eventContext = useMemo(
    () => ({ studyId, participantId, instrumentId, instanceId }),
    [studyId, participantId, instrumentId, instanceId],
  );
  const sendEvent = useInstrumentEvents(eventContext, write);
  const draftKey = draftKeyFor({
    userId: user?.id ?? 0,
    studyId,
    participantId,
    formId: `instrument:${instrumentId}:${instanceId ?? "new"}`,
  });
  const draft = useSurveyDraft(draftKey, user?.id);
  const record = useInstrumentRecord(studyId, siteId, participantId);
  const { consents: consentLock, known: consentLockKnown } = useConsentLock(studyId, siteId, participantId);

  // The loader stops on a download failure and says so once (spec 02 section 8).
  const downloadFailed =
    definition.isError && !(definition.error instanceof ApiError && definition.error.status === 403);
  const reportedDownload = useRef(false);
  useEffect(() => {
    if (!downloadFailed || reportedDownload.current || consentLock.length > 0) return;
    reportedDownload.current = true;
    sendEvent("downloadFailed", { reason: definition.error?.message });
  }, [downloadFailed, sendEvent, definition.error, consentLock.length]);

  const participantLink = (
    <Link
      className="button button--secondary"
      to="/studies/$studyId/sites/$siteId/participants/$participantId"
      params={{ studyId, siteId, participantId }}
    >
      <Trans id="instrument_back_to_participant">Back to the participant</Trans>
    </Link>
  );

  const forbidden = definition.error instanceof ApiError && definition.error.status === 403;
  const role = user?.permissions?.[String(studyId)]?.role;
  const denied = definition.data !== undefined && !mayAdminister(definition.data.permissions, role);
  if (forbidden || denied) {
    const name = definition.data?.displayName ?? definition.data?.definition.title ?? instrument;
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={t({
            id: "access_denied_instrument",
            message: `It looks like you don't have permission to administer ${name}`,
          })}
          actions={
            <>
              {participantLink}
              <Link className="button button--secondary" to="/studies">
                <Trans id="access_denied_back_to_studies">Back to studies</Trans>
              </Link>
            </>
          }
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }

  if (consentLock.length > 0) {
    // Consent first: a bookmark or a link does not open an instrument the server would refuse.
    return (
      <div className="page page--narrow">
        <ConsentFirstNotice
          studyId={studyId}
          siteId={siteId}
          participantId={participantId}
          consents={consentLock}
          headingLevel={1}
        />
        <div className="page__actions">{participantLink}</div>
      </div>
    );
  }

  if (downloadFailed) {
    // A definition that arrived but does not validate is not a connection problem: say what is
    // wrong with it (the question and field), for the study team.
    const unreadable = definition.error instanceof DefinitionFileError ? definition.error.message : null;
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="instrument_download_failed">The instrument could not be downloaded.</Trans>
        </h1>
        {unreadable ? (
          <p>
            <Trans id="instrument_definition_invalid">
              The instrument's definition is not valid: {unreadable}. Tell the study team.
            </Trans>
          </p>
        ) : (
          <p>
            <Trans id="instrument_download_failed_body">
              Check the connection and try again. An instrument opened once before also opens without a
              connection.
            </Trans>
          </p>
        )}
        <div className="page__actions">
          <button type="button" className="button button--primary" onClick={() => void definition.refetch()}>
            <Trans id="instrument_download_retry">Try again</Trans>
          </button>
          {participantLink}
        </div>
      </div>
    );
  }

  // Until the participant's consents are known the form does not open (nor send its seen event).
  if (!definition.data || !user || !write || !consentLockKnown) {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="instrument_loading">Loading instrument…</Trans>
        </p>
      </div>
    );
  }

  return (
    <LoadedInstrument
      {...props}
      definition={definition.data.definition}
      userId={user.id}
      username={user.username}
      write={write}
      sendEvent={sendEvent}
      title={definition.data.definition.title ?? definition.data.displayName ?? instrument}
      draftKey={draftKey}
      draftStatus={draft.status}
      saveDraft={draft.save}
      record={record}
    />
  );
}

type LoadedProps = InstrumentPageProps & {
  definition: SurveyDefinition;
  userId: number;
  username: string;
  write: WriteContext;
  sendEvent: (type: EventType, extra?: Record<string, unknown>) => void;
  title: string;
  draftKey: string;
  draftStatus: DraftStatus;
  saveDraft: (draft: SurveyDraft) => Promise<void>;
  record: RecordFacts;
};

function LoadedInstrument(props: LoadedProps) {
  const { definition, studyId, siteId, participantId, instrumentId, instanceId, userId, sendEvent } = props;
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { draftKey, draftStatus: status, saveDraft: save } = props;
  const definitionKey = definitionKeyOf(definition);
  const resumable =
    status.kind === "ready" && status.draft?.definitionKey === definitionKey ? status.draft : undefined;
  const [submissionId, setSubmissionId] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  /** The outbox is storing the submission (said by the runner when that takes long). */
  const [storing, setStoring] = useState(false);
  /** The device refused to queue the submission: why, and what to try again. */
  const [notStored, setNotStored] = useState<{ reason: string; result: SurveyResult } | null>(null);
  const context = useMemo(
    () => ({ studyId, siteId, participantId, instrumentId }),
    [studyId, siteId, participantId, instrumentId],
  );

  const seen = useRef(false);
  useEffect(() => {
    if (status.kind !== "ready" || seen.current) return;
    seen.current = true;
    sendEvent("seen");
  }, [status.kind, sendEvent]);

  const toParticipant = useCallback(
    () =>
      navigate({
        to: "/studies/$studyId/sites/$siteId/participants/$participantId",
        params: { studyId, siteId, participantId },
      }),
    [navigate, studyId, siteId, participantId],
  );

  const onParsingFailed = useCallback(
    (question: Question) =>
      sendEvent("parsingFailed", { question_id: question.id, question_type: question.type }),
    [sendEvent],
  );

  const onQuit = async () => {
    sendEvent("cancelled");
    await removeDraft(draftKey);
    await toParticipant();
  };

  const title = props.title;
  /** Queues the submission; false when the device refused it (the clinician is told why). */
  const onFinish = async (result: SurveyResult): Promise<boolean> => {
    if (finishing) return false;
    const { flow, files } = result;
    setFinishing(true);
    setNotStored(null);
    try {
      const { uploads, submission } = instrumentSubmissionWrites({
        definition,
        flow,
        files,
        user: { id: userId, username: props.username },
        instrumentId,
        participantId,
        instanceId,
        draftKey,
        label: t({ id: "outbox_label_instrument_submission", message: `${title} submission` }),
        now: new Date(),
      });
      setStoring(true);
      const item = await enqueueSubmissionWithUploads(uploads, submission, props.write).finally(() =>
        setStoring(false),
      );
      setSubmissionId(item.id);
      // The outbox holds the answers now: a draft left behind could be finished a second time.
      await removeDraft(draftKey).catch((error: unknown) =>
        console.error("The draft was not removed", error),
      );
      return true;
    } catch (error) {
      // Nothing was queued and the draft is kept: said at once, with a retry and an export.
      console.error("The instrument could not be saved on this device", error);
      setFinishing(false);
      showToast(savingFailedMessage, "error", TOAST_ERROR_MS);
      setNotStored({ reason: describeStoreError(error), result });
      return false;
    }
  };

  const reportedFailure = useRef(false);
  const onProblem = useCallback(() => {
    if (reportedFailure.current) return;
    reportedFailure.current = true;
    sendEvent("submitFailed");
  }, [sendEvent]);

  // Toasts name the participant and the form, so a clinician moving on knows which was sent.
  const participantName = props.record.participantName;
  const subjectId = props.record.subjectId;
  const onDelivered = useCallback(() => {
    sendEvent("completed");
    showToast(
      participantName
        ? msg({
            id: "instrument_submitted_for",
            message: `Instrument submitted. ${title} for ${participantName} (${subjectId}).`,
          })
        : submittedMessage,
      "success",
      TOAST_SUCCESS_MS,
    );
    // Fire and forget: the lists and the participant's counts refetch while we navigate back.
    void queryClient.invalidateQueries({ queryKey: instrumentListKeys.all });
    void queryClient.invalidateQueries({ queryKey: participantKeys.all });
    void toParticipant();
  }, [sendEvent, queryClient, toParticipant, title, participantName, subjectId]);

  const onSendLater = useCallback(() => {
    showToast(
      participantName
        ? msg({
            id: "instrument_saved_for_later_for",
            message: `${title} for ${participantName} (${subjectId}) is saved on this device and is sent when the connection is back.`,
          })
        : savedForLaterMessage,
      "info",
      TOAST_SUCCESS_MS,
    );
    void toParticipant();
  }, [toParticipant, title, participantName, subjectId]);

  if (status.kind === "loading") {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="instrument_loading">Loading instrument…</Trans>
        </p>
      </div>
    );
  }
  if (status.kind === "open-elsewhere") return <DraftOpenElsewhere kind="instrument" />;

  return (
    <div className="page page--survey">
      <SurveyRunner
        definition={definition}
        title={props.title}
        record={props.record}
        draft={resumable}
        definitionKey={definitionKey}
        saveDraft={save}
        context={context}
        onParsingFailed={onParsingFailed}
        onFinish={onFinish}
        onQuit={() => void onQuit()}
        finishing={finishing}
        storing={storing}
      />
      {notStored ? (
        <NotStoredModal
          form="instrument"
          reason={notStored.reason}
          onRetry={async () => {
            await onFinish(notStored.result);
          }}
          onExport={() => downloadAnswers(title, { definitionKey, ...notStored.result })}
          onClose={() => setNotStored(null)}
        />
      ) : null}
      {submissionId ? (
        <SubmissionStatusModal
          submissionId={submissionId}
          onDelivered={onDelivered}
          onProblem={onProblem}
          onClose={onSendLater}
        />
      ) : null}
    </div>
  );
}
