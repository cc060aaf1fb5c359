/**
 * Consent completion (spec 02 sections 2 and 4): the consent definition of one
 * version for one participant, walked with the survey runner. What this page adds to the
 * instrument route's pattern:
 * - the consent filtering and pre-filling (consent-filter.ts): earlier sessions' answers are
 *   read-only and complete, the other staff side's open questions are left out;
 * - the consent signature question, with the password re-entry at a clinician or witness
 *   signature (only the ciphertext is kept, in memory and then in the outbox item);
 * - the consent prompt's share button (print, email) and 'Finish + Close' on the last question;
 * - the submit through the outbox (signature images first, then the consent, through the witness
 *   endpoint for a witness); a device that refuses to store it is said at once (NotStoredModal);
 * - on delivery, the consent page with the message of the status the participant moved to
 *   (?signed=<status>), never a success the status does not show;
 * - a participant enrolled offline (a provisional id, not known to the server yet) signs from the
 *   consent's blank definition kept on the device, as a participant awaiting their signature;
 *   the consent is queued behind the enrolment and its status read by the server's id once sent;
 * - the events an instrument sends on failure (consent-events.ts): downloadFailed, parsingFailed
 *   and submitFailed (once), naming the consent and version;
 * - the submit modals with the consent's texts (form="consent"), never the clinician instrument's.
 *
 * State it owns: the ciphertext of this session's staff signature (a ref; never the password).
 */
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { blankConsentQuery, consentDefinitionQuery, fetchConsentDefinition } from "../../api/consents-api.ts";
import { enrolmentBodyOf } from "../../api/enrolment-api.ts";
import { consentKeys } from "../../api/my-consents-api.ts";
import { ApiError } from "../../api/request.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import type {
  BlankConsentResponse,
  ConsentDefinitionResponse,
  ConsentPerson,
  ConsentSigning,
} from "../../../core/contracts/consent-schemas.ts";
import type { SignerRole } from "../../../core/contracts/roles.ts";
import type { ConsentParticipantStatus } from "../../../core/contracts/consents.ts";
import { isUserSignerRole, isWitness } from "../../../core/contracts/roles.ts";
import { draftKeyFor, removeDraft } from "../../outbox/drafts.ts";
import { indexedDbParticipantIds } from "../../outbox/participant-id-store.ts";
import { isProvisionalParticipantId } from "../../outbox/provisional-participants.ts";
import { useOutboxItems } from "../../outbox-ui/use-outbox.ts";
import { pendingEnrolmentOf } from "../../outbox/pending-enrolment.ts";
import { enqueueSubmissionWithUploads, eventsWrite, type WriteContext } from "../../outbox/enqueue.ts";
import { enqueueEvent } from "../../outbox-ui/enqueue-event.ts";
import type { EventType } from "../../../core/contracts/events.ts";
import { NotStoredModal } from "../../outbox-ui/not-stored-modal.tsx";
import { describeStoreError } from "../../outbox-ui/store-error.ts";
import { SubmissionStatusModal } from "../../outbox-ui/submission-status-modal.tsx";
import {
  consentSession,
  consentViewerOf,
  sessionRecords,
  startConsentFlow,
} from "../../../core/survey-engine/consent-filter.ts";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import { recordsToSubmit } from "../../../core/survey-engine/flow.ts";
import { ConsentSignatureQuestion } from "../../survey/questions/consent-signature-question.tsx";
import { QuestionBody } from "../../survey/questions/question-body.tsx";
import type { QuestionProps } from "../../survey/questions/question-props.ts";
import { downloadAnswers } from "../../survey/runner/answers-export.ts";
import { definitionKeyOf } from "../../survey/runner/survey-draft.ts";
import { SurveyRunner, type SurveyResult } from "../../survey/runner/survey-runner.tsx";
import { useSurveyDraft } from "../../survey/runner/use-survey-draft.ts";
import { AccessDeniedPanel } from "../../widgets/access-denied/access-denied-panel.tsx";
import { showToast, TOAST_ERROR_MS, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { AnsweredByNote, answeredBy } from "./answered-by.tsx";
import { ConsentShareMenu } from "./consent-share-menu.tsx";
import {
  SigningPasswordDialog,
  signingProofOf,
  type AcceptedSigning,
} from "../../survey/questions/signing-password-dialog.tsx";
import { consentSubmissionWrites, holdsStaffSignature } from "./submit-consent.ts";
import { DraftOpenElsewhere } from "../../survey/runner/draft-open-elsewhere.tsx";
import { useStudySiteNames, type RecordFacts } from "../../survey/runner/record-context.tsx";
import { consentEvent, type ConsentEventContext } from "./consent-events.ts";

export type ConsentCompletionProps = {
  studyId: number;
  siteId: number;
  consentId: number;
  participantId: number;
  versionId: number;
};

type SendConsentEvent = (type: EventType, extra?: Record<string, unknown>) => void;

/** Sends a consent event through the outbox (nothing before the user is known). */
function useConsentEvents(context: ConsentEventContext, write: WriteContext | null): SendConsentEvent {
  const { t } = useLingui();
  const { studyId, participantId, consentId, consentVersion } = context;
  return useCallback(
    (type: EventType, extra?: Record<string, unknown>) => {
      if (!write) return;
      void enqueueEvent(
        eventsWrite(
          [consentEvent(type, { studyId, participantId, consentId, consentVersion }, new Date(), extra)],
          t({ id: "outbox_label_consent_events", message: "Consent events" }),
        ),
        write,
      );
    },
    [studyId, participantId, consentId, consentVersion, write, t],
  );
}

export function ConsentCompletionPage(props: ConsentCompletionProps) {
  return isProvisionalParticipantId(props.participantId) ? (
    <OfflineParticipantConsent {...props} />
  ) : (
    <ServerParticipantConsent {...props} />
  );
}

/** A participant the server knows: their consent, status and earlier signings from the server. */
function ServerParticipantConsent(props: ConsentCompletionProps) {
  const { studyId, siteId, consentId, participantId, versionId } = props;
  const { t } = useLingui();
  const user = useStoredUser();
  const consent = useQuery(consentDefinitionQuery(consentId, versionId, participantId));
  const write = useMemo<WriteContext | null>(
    () => (user ? { userId: user.id, username: user.username, studyId, siteId, participantId } : null),
    [user, studyId, siteId, participantId],
  );
  const sendEvent = useConsentEvents({ studyId, participantId, consentId, consentVersion: versionId }, write);

  const backLink = (
    <Link
      className="button button--secondary"
      to="/studies/$studyId/sites/$siteId/consents/$consentId"
      params={{ studyId, siteId, consentId }}
      search={{}}
    >
      <Trans id="consent_back_to_consent">Back to the consent</Trans>
    </Link>
  );

  const status = consent.error instanceof ApiError ? consent.error.status : undefined;
  // The loader stops on a download failure and says so once, as an instrument's does. A refetch
  // that fails (offline, the server down) leaves the copy the device holds: a consent opened
  // once opens without a connection.
  const downloadFailed = consent.isError && consent.data === undefined && status !== 403 && status !== 404;
  const reportedDownload = useRef(false);
  useEffect(() => {
    if (!downloadFailed || reportedDownload.current) return;
    reportedDownload.current = true;
    sendEvent("downloadFailed", { reason: consent.error?.message });
  }, [downloadFailed, sendEvent, consent.error]);

  if (status === 403 || status === 404) {
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={t({
            id: "consents_access_denied",
            message: "It looks like you don't have access to this consent",
          })}
          actions={backLink}
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }
  if (downloadFailed) {
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="consent_download_failed">The consent could not be downloaded.</Trans>
        </h1>
        <p>
          <Trans id="consent_download_failed_body">
            Check the connection and try again. A consent opened once before also opens without a connection.
          </Trans>
        </p>
        <div className="page__actions">
          <button type="button" className="button button--primary" onClick={() => void consent.refetch()}>
            <Trans id="instrument_download_retry">Try again</Trans>
          </button>
          {backLink}
        </div>
      </div>
    );
  }
  if (!consent.data || !user) {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="consent_loading">Loading consent…</Trans>
        </p>
      </div>
    );
  }
  const role = user.permissions?.[String(studyId)]?.role;
  return (
    <LoadedConsent
      {...props}
      data={consent.data}
      userId={user.id}
      username={user.username}
      userName={user.name?.trim() || user.username}
      role={role}
    />
  );
}

/** What the consent page of a participant enrolled offline shows: nothing signed, awaiting them. */
export function offlineConsentView(
  blank: BlankConsentResponse,
  participant: ConsentPerson,
): ConsentDefinitionResponse {
  return {
    consent_id: blank.consent_id,
    consent_version: blank.consent_version,
    title: blank.title,
    study_id: blank.study_id,
    // The server offers every deployed consent to a new participant, awaiting their signature.
    status: "awaiting_participant",
    participant,
    definition: blank.definition,
    records: [],
    signatures: [],
  };
}

/**
 * A participant enrolled on this device whom the server does not know yet: the consent's blank
 * definition (kept while online) and the details of the queued enrolment. The participant is read
 * once: if the enrolment is delivered while the consent is being signed, the page stays as it is
 * and the consent, queued under the provisional id, is sent to the server's id.
 */
function OfflineParticipantConsent(props: ConsentCompletionProps) {
  const { studyId, siteId, consentId, participantId, versionId } = props;
  const { t } = useLingui();
  const user = useStoredUser();
  const blank = useQuery(blankConsentQuery(consentId, versionId));
  const outbox = useOutboxItems();
  const enrolment = pendingEnrolmentOf(outbox.data ?? [], participantId, enrolmentBodyOf);
  const [participant, setParticipant] = useState<ConsentPerson | undefined>(undefined);
  if (enrolment && !participant) {
    const { body } = enrolment;
    setParticipant({
      id: participantId,
      subject_id: body.subject_id,
      firstname: body.fname,
      lastname: body.lname,
      email: body.email ?? null,
    });
  }

  const backLink = (
    <Link
      className="button button--secondary"
      to="/studies/$studyId/sites/$siteId/participants/$participantId"
      params={{ studyId, siteId, participantId }}
    >
      <Trans id="consent_back_to_participant">Back to the participant</Trans>
    </Link>
  );
  const loading = (
    <div className="page">
      <p className="empty-state" role="status">
        <Trans id="consent_loading">Loading consent…</Trans>
      </p>
    </div>
  );

  if (!participant && !outbox.isPending && !enrolment) {
    return (
      <div className="page page--narrow">
        <AccessDeniedPanel
          message={t({
            id: "consent_offline_participant_unknown",
            message: "This participant is not waiting on this device: open them from the search.",
          })}
          actions={backLink}
        >
          {null}
        </AccessDeniedPanel>
      </div>
    );
  }
  // As above: a failed refetch leaves the blank version the device holds.
  if (blank.isError && blank.data === undefined) {
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="consent_offline_not_kept">This consent is not on this device.</Trans>
        </h1>
        <p>
          <Trans id="consent_offline_not_kept_body">
            It is kept on this device when the participant search is opened with a connection. Try again once
            connected, or sign it once the server has the participant.
          </Trans>
        </p>
        <div className="page__actions">
          <button type="button" className="button button--primary" onClick={() => void blank.refetch()}>
            <Trans id="instrument_download_retry">Try again</Trans>
          </button>
          {backLink}
        </div>
      </div>
    );
  }
  if (!blank.data || !participant || !user) return loading;
  return (
    <LoadedConsent
      {...props}
      data={offlineConsentView(blank.data, participant)}
      provisional
      userId={user.id}
      username={user.username}
      userName={user.name?.trim() || user.username}
      role={user.permissions?.[String(studyId)]?.role}
    />
  );
}

type LoadedProps = ConsentCompletionProps & {
  /** The participant was enrolled on this device and the server does not know them yet. */
  provisional?: boolean;
  data: ConsentDefinitionResponse;
  userId: number;
  username: string;
  userName: string;
  role: string | undefined;
};

type PasswordRequest = { role: SignerRole; resolve: (signing: AcceptedSigning | null) => void };

function LoadedConsent(props: LoadedProps) {
  const { data, studyId, siteId, consentId, participantId, versionId, userId } = props;
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const asWitness = isWitness(props.role);
  const session = useMemo(
    () => consentSession(data.definition, consentViewerOf(props.role), data.records),
    [data, props.role],
  );
  // A draft belongs to this version and to what earlier sessions had signed when it was made.
  const definitionKey = `${definitionKeyOf(data.definition)}#${data.status}#${data.records.length}`;
  const draftKey = draftKeyFor({
    userId,
    studyId,
    participantId,
    formId: `consent:${consentId}:${versionId}`,
  });
  const draft = useSurveyDraft(draftKey, userId);
  const resumable =
    draft.status.kind === "ready" && draft.status.draft?.definitionKey === definitionKey
      ? draft.status.draft
      : undefined;
  const initialFlow = useMemo(() => startConsentFlow(session, new Date()), [session]);
  const write = useMemo<WriteContext>(
    () => ({ userId, username: props.username, studyId, siteId, participantId }),
    [userId, props.username, studyId, siteId, participantId],
  );
  const sendEvent = useConsentEvents({ studyId, participantId, consentId, consentVersion: versionId }, write);
  const onParsingFailed = useCallback(
    (question: Question) =>
      sendEvent("parsingFailed", { question_id: question.id, question_type: question.type }),
    [sendEvent],
  );
  const reportedFailure = useRef(false);
  const onProblem = useCallback(() => {
    if (reportedFailure.current) return;
    reportedFailure.current = true;
    sendEvent("submitFailed");
  }, [sendEvent]);
  const [finishing, setFinishing] = useState(false);
  /** The outbox is storing the consent (said by the runner when that takes long). */
  const [storing, setStoring] = useState(false);
  const [submissionId, setSubmissionId] = useState<string | null>(null);
  const [passwordRequest, setPasswordRequest] = useState<PasswordRequest | null>(null);
  /** The device refused to queue the consent: why, and what to try again. */
  const [notStored, setNotStored] = useState<{ reason: string; result: SurveyResult } | null>(null);
  const signing = useRef<ConsentSigning | undefined>(undefined);
  const participantName = `${data.participant.firstname} ${data.participant.lastname}`.trim();
  const title = data.title;
  const subjectId = data.participant.subject_id;
  const { studyName, siteName } = useStudySiteNames(studyId, siteId);
  const record = useMemo<RecordFacts>(
    () => ({ participantName, subjectId: data.participant.subject_id, studyName, siteName }),
    [participantName, data.participant.subject_id, studyName, siteName],
  );

  const askPassword = useCallback(
    (role: SignerRole) =>
      new Promise<AcceptedSigning | null>((resolve) => setPasswordRequest({ role, resolve })),
    [],
  );
  const requestPassword = useCallback(
    async (role: SignerRole) => {
      const accepted = await askPassword(role);
      if (!accepted) return null;
      signing.current = signingProofOf(accepted);
      return accepted.capturedAt;
    },
    [askPassword],
  );

  const toConsent = useCallback(
    (signed?: ConsentParticipantStatus) =>
      navigate({
        to: "/studies/$studyId/sites/$siteId/consents/$consentId",
        params: { studyId, siteId, consentId },
        search: signed ? { signed } : {},
      }),
    [navigate, studyId, siteId, consentId],
  );

  // A participant enrolled offline is on no consent page yet: back to their own page.
  const provisional = props.provisional === true;
  const toParticipant = useCallback(
    () =>
      navigate({
        to: "/studies/$studyId/sites/$siteId/participants/$participantId",
        params: { studyId, siteId, participantId },
      }),
    [navigate, studyId, siteId, participantId],
  );
  const leave = provisional ? toParticipant : () => toConsent();

  const onQuit = async () => {
    await removeDraft(draftKey);
    await leave();
  };

  /** Queues the consent; false when it was not (the clinician was told why, or cancelled). */
  const onFinish = async (result: SurveyResult): Promise<boolean> => {
    if (finishing) return false;
    const { flow, files } = result;
    setFinishing(true);
    setNotStored(null);
    try {
      const records = sessionRecords(recordsToSubmit(session.definition, flow), session.readOnlyIds);
      if (holdsStaffSignature(session.definition, records) && !signing.current) {
        // A reload lost the ciphertext of the signature made before it: ask again.
        const accepted = await requestPassword(asWitness ? "witness" : "clinro");
        if (!accepted) {
          setFinishing(false);
          return false;
        }
      }
      const { uploads, consent } = consentSubmissionWrites({
        definition: session.definition,
        consentDefinition: data.definition,
        earlierRecords: data.records,
        flow,
        readOnlyIds: session.readOnlyIds,
        files,
        consentId,
        consentVersion: versionId,
        participantId,
        asWitness,
        signing: signing.current,
        draftKey,
        label: t({ id: "outbox_label_consent", message: `${title}: ${participantName}` }),
        now: new Date(),
        browserInfo: navigator.userAgent,
      });
      setStoring(true);
      const item = await enqueueSubmissionWithUploads(uploads, consent, write).finally(() =>
        setStoring(false),
      );
      // The outbox holds the consent now: the ciphertext and the draft are not kept elsewhere.
      signing.current = undefined;
      setSubmissionId(item.id);
      await removeDraft(draftKey).catch((error: unknown) =>
        console.error("The draft was not removed", error),
      );
      return true;
    } catch (error) {
      // Nothing was queued (the outbox stores a consent whole or not at all): say so at once.
      console.error("The consent could not be stored on this device", error);
      setNotStored({ reason: describeStoreError(error), result });
      setFinishing(false);
      return false;
    }
  };

  // Delivered: the participant's status as the server now holds it says what the session achieved.
  const statusBefore = data.status;
  const onDelivered = useCallback(async () => {
    void queryClient.invalidateQueries({ queryKey: consentKeys.all });
    // Sent for a participant enrolled offline: the server knows them by its own id now.
    const serverId = provisional
      ? (await indexedDbParticipantIds.get(participantId).catch(() => undefined))?.participantId
      : participantId;
    const after =
      serverId === undefined
        ? undefined
        : await fetchConsentDefinition({ consentId, version: versionId, participantId: serverId }).then(
            (fresh) => fresh.status,
            () => undefined,
          );
    // Toasts name the consent and the participant, as the instrument's do.
    if (after === undefined) {
      showToast(
        msg({
          id: "consent_sent_for",
          message: `Consent sent. ${title} for ${participantName} (${subjectId}).`,
        }),
        "info",
        TOAST_SUCCESS_MS,
      );
      await toConsent();
    } else if (after === statusBefore) {
      // Never reported as signed when it was not: the status is what the clinician reads next.
      showToast(
        msg({
          id: "consent_not_moved_for",
          message: `${title} for ${participantName} (${subjectId}) was sent, but its status did not change: it still awaits a signature.`,
        }),
        "error",
        TOAST_ERROR_MS,
      );
      await toConsent();
    } else {
      await toConsent(after);
    }
  }, [
    queryClient,
    toConsent,
    consentId,
    versionId,
    participantId,
    statusBefore,
    provisional,
    title,
    participantName,
    subjectId,
  ]);

  const onSendLater = useCallback(() => {
    showToast(
      msg({
        id: "consent_saved_for_later_for",
        message: `${title} for ${participantName} (${subjectId}) is saved on this device and is sent when the connection is back.`,
      }),
      "info",
      TOAST_SUCCESS_MS,
    );
    void queryClient.invalidateQueries({ queryKey: consentKeys.all });
    void (provisional ? toParticipant() : toConsent());
  }, [queryClient, toConsent, toParticipant, provisional, title, participantName, subjectId]);

  const renderQuestion = (question: Question, questionProps: QuestionProps) => {
    if (question.type === "consent_signature") {
      const signerRole = (question.attributes as { signer_role?: string }).signer_role;
      const staff = isUserSignerRole(signerRole);
      return (
        <ConsentSignatureQuestion
          {...questionProps}
          signerName={staff ? props.userName : participantName}
          requestPassword={requestPassword}
          stored={data.signatures.find((signature) => signature.question_id === question.id)}
        />
      );
    }
    // Email and print name the participant on the server: not before the server has them.
    if (question.type === "prompt" && !provisional) {
      return (
        <>
          <QuestionBody {...questionProps} />
          <ConsentShareMenu
            consentId={consentId}
            version={versionId}
            participantId={participantId}
            participant={data.participant}
          />
        </>
      );
    }
    // An earlier session's answer says whose it is.
    const by = questionProps.readOnly ? answeredBy(question, participantName, data.signatures) : undefined;
    if (by) {
      return (
        <>
          <QuestionBody {...questionProps} />
          <AnsweredByNote by={by} />
        </>
      );
    }
    return undefined;
  };

  if (draft.status.kind === "loading") {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="consent_loading">Loading consent…</Trans>
        </p>
      </div>
    );
  }
  if (draft.status.kind === "open-elsewhere") return <DraftOpenElsewhere kind="consent" />;

  return (
    <div className="page page--survey page--consent">
      <SurveyRunner
        kind="consent"
        definition={session.definition}
        title={title}
        record={record}
        draft={resumable}
        initialFlow={initialFlow}
        readOnlyIds={session.readOnlyIds}
        finishOnLastQuestion
        renderQuestion={renderQuestion}
        definitionKey={definitionKey}
        saveDraft={draft.save}
        context={{ studyId, siteId, participantId, instrumentId: consentId }}
        onParsingFailed={onParsingFailed}
        onFinish={onFinish}
        onQuit={() => void onQuit()}
        finishing={finishing}
        storing={storing}
      />
      {passwordRequest ? (
        <SigningPasswordDialog
          userId={userId}
          signerName={props.userName}
          role={passwordRequest.role}
          record={record}
          signedFor={{ consentId, participantId }}
          onAccepted={(accepted) => {
            passwordRequest.resolve(accepted);
            setPasswordRequest(null);
          }}
          onCancel={() => {
            passwordRequest.resolve(null);
            setPasswordRequest(null);
          }}
        />
      ) : null}
      {submissionId ? (
        <SubmissionStatusModal
          submissionId={submissionId}
          form="consent"
          onDelivered={() => void onDelivered()}
          onProblem={onProblem}
          onClose={onSendLater}
        />
      ) : null}
      {notStored ? (
        <NotStoredModal
          form="consent"
          reason={notStored.reason}
          onRetry={async () => {
            await onFinish(notStored.result);
          }}
          onExport={() => downloadAnswers(title, { definitionKey, ...notStored.result })}
          onClose={() => setNotStored(null)}
        />
      ) : null}
    </div>
  );
}
