/**
 * The page of a participant added on this device and not yet enrolled by the server (opened at
 * their provisional id, provisional-participants.ts). It shows what the device knows: the
 * details entered, whether the enrolment waits or was refused (then corrected here and sent
 * again), the writes queued for them, and the instruments that can be completed offline. Once
 * the server has enrolled them, it moves to their real page.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useMemo, useState } from "react";
import { enrolmentBodyOf } from "../../api/enrolment-api.ts";
import { instrumentListKeys } from "../../api/instruments-api.ts";
import { consentKeys } from "../../api/my-consents-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { formatShortDate } from "../../i18n/format-date.ts";
import { reviseEnrolment } from "../../outbox/enqueue.ts";
import { indexedDbParticipantIds } from "../../outbox/participant-id-store.ts";
import { pendingEnrolmentOf } from "../../outbox/pending-enrolment.ts";
import { describeStoreError } from "../../outbox-ui/store-error.ts";
import { useOutboxItems } from "../../outbox-ui/use-outbox.ts";
import type { MyConsentsResponse } from "../../../core/contracts/consents.ts";
import type { FormsListResponse, InstancesListResponse } from "../../../core/contracts/instrument-lists.ts";
import { isWitness } from "../../../core/contracts/roles.ts";
import { ParticipantForm, type ServerProblem } from "./participant-form.tsx";
import { participantFormValuesOf } from "./participant-form-model.ts";
import "./enrolment.css";
import { offlineConsents, offlineInstruments, writesWaitingFor } from "./pending-participant.ts";

type Props = { studyId: number; siteId: number; participantId: number };

/**
 * Moves to the participant's real page as soon as the map knows their server id; answers the
 * outbox version the map was last read for.
 */
function useEnrolledRedirect({ studyId, siteId, participantId }: Props, outboxVersion: number) {
  const navigate = useNavigate();
  const [checked, setChecked] = useState<number | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void indexedDbParticipantIds.get(participantId).then((enrolled) => {
      if (!current) return;
      setChecked(outboxVersion);
      if (enrolled) {
        void navigate({
          to: "/studies/$studyId/sites/$siteId/participants/$participantId",
          params: { studyId, siteId, participantId: enrolled.participantId },
          replace: true,
        });
      }
    });
    return () => {
      current = false;
    };
  }, [navigate, studyId, siteId, participantId, outboxVersion]);
  return checked;
}

export function PendingParticipantPage(props: Props) {
  const { studyId, siteId, participantId } = props;
  const { t } = useLingui();
  const user = useStoredUser();
  const queryClient = useQueryClient();
  const outbox = useOutboxItems();
  const checkedFor = useEnrolledRedirect(props, outbox.dataUpdatedAt);
  const items = useMemo(() => outbox.data ?? [], [outbox.data]);
  const enrolment = pendingEnrolmentOf(items, participantId, enrolmentBodyOf);
  const waiting = useMemo(() => writesWaitingFor(items, participantId), [items, participantId]);
  const role = user?.permissions?.[String(studyId)]?.role;
  // The lists restored from the device's cache may arrive after the page: read them again then.
  const [listsVersion, setListsVersion] = useState(0);
  // The corrected enrolment could not be queued: the device refused to store it.
  const [reviseProblem, setReviseProblem] = useState<ServerProblem | null>(null);
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        // Cache events may fire while another component renders: the update waits for it.
        const root = event.query.queryKey[0];
        if (root === instrumentListKeys.all[0] || root === consentKeys.all[0]) {
          queueMicrotask(() => setListsVersion((version) => version + 1));
        }
      }),
    [queryClient],
  );
  const instruments = useMemo(() => {
    const cached = queryClient
      .getQueriesData<FormsListResponse | InstancesListResponse>({ queryKey: instrumentListKeys.all })
      .flatMap(([key, list]) => (list ? [{ studyId: Number(key[3]), list }] : []));
    return offlineInstruments(cached, studyId, role);
    // listsVersion: the cache changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient, studyId, role, listsVersion]);
  const consents = useMemo(() => {
    // A witness never starts a consent.
    if (isWitness(role)) return [];
    return offlineConsents(
      queryClient.getQueryData<MyConsentsResponse>(consentKeys.site(studyId, siteId)),
      studyId,
      (consentId, version) => queryClient.getQueryData(consentKeys.blank(consentId, version)) !== undefined,
      waiting,
    );
    // listsVersion: the cache changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient, studyId, siteId, role, waiting, listsVersion]);

  const backToSearch = (
    <Link
      className="button button--secondary"
      to="/studies/$studyId/sites/$siteId/search"
      params={{ studyId, siteId }}
    >
      <Trans id="participant_back_to_search">Back to search</Trans>
    </Link>
  );

  // An enrolment gone from the outbox was delivered, unless the map says otherwise: read it first.
  if (outbox.isPending || checkedFor === undefined || (!enrolment && checkedFor !== outbox.dataUpdatedAt)) {
    return (
      <div className="page">
        <p className="empty-state" role="status">
          <Trans id="participant_loading">Loading participant…</Trans>
        </p>
      </div>
    );
  }
  if (!enrolment) {
    // Delivered meanwhile (the redirect is on its way), or never added on this device.
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="enrolment_pending_unknown">This participant is not on this device.</Trans>
        </h1>
        {backToSearch}
      </div>
    );
  }

  const { body, item, state } = enrolment;
  const refusal = item.lastError;
  return (
    <div className="page participant-home pending-participant enrolment-page">
      <h1 tabIndex={-1}>
        {body.fname} {body.lname}
      </h1>
      <dl className="pending-participant__facts">
        <div>
          <dt>
            <Trans id="enrolment_subject_id">Subject id</Trans>
          </dt>
          <dd>{body.subject_id}</dd>
        </div>
        <div>
          <dt>
            <Trans id="enrolment_date_of_birth">Date of birth</Trans>
          </dt>
          <dd>{formatShortDate(body.date_of_birth)}</dd>
        </div>
      </dl>

      {state === "waiting" ? (
        <p className="enrolment-notice" role="status">
          <Trans id="enrolment_pending_waiting">
            Not on the server yet: this participant is saved on this device and is sent as soon as there is a
            connection. You can already complete instruments and consents for them; they are sent after the
            participant.
          </Trans>
        </p>
      ) : (
        <section
          className="enrolment-notice enrolment-notice--error"
          aria-labelledby="enrolment-refused-heading"
        >
          <h2 id="enrolment-refused-heading">
            <Trans id="enrolment_pending_refused">The server refused this participant</Trans>
          </h2>
          <p role="alert">
            {refusal?.status === 409
              ? t({
                  id: "enrolment_refused_conflict",
                  message:
                    "The subject id is already used in this study, or the site takes no new participants.",
                })
              : t({ id: "enrolment_refused_other", message: "The details were not accepted." })}{" "}
            <span className="pending-participant__server-message">{refusal?.message}</span>
          </p>
          <p>
            <Trans id="enrolment_refused_kept">
              What was recorded for this participant is kept on this device and sent once the corrected
              participant is accepted.
            </Trans>
          </p>
          <ParticipantForm
            key={item.id}
            initial={participantFormValuesOf(body)}
            submitLabel={<Trans id="enrolment_send_again">Correct and send again</Trans>}
            serverProblem={reviseProblem}
            onSubmit={async (fields) => {
              setReviseProblem(null);
              try {
                await reviseEnrolment(item, { ...fields, client_id: body.client_id });
              } catch (error) {
                const reason = describeStoreError(error);
                setReviseProblem({
                  text: t({
                    id: "enrolment_not_stored",
                    message: `The participant could not be saved on this device: ${reason}`,
                  }),
                });
              }
            }}
          />
        </section>
      )}

      <section aria-labelledby="pending-instruments-heading">
        <h2 id="pending-instruments-heading">
          <Trans id="enrolment_pending_instruments">Instruments</Trans>
        </h2>
        {instruments.length === 0 ? (
          <p className="empty-state">
            <Trans id="enrolment_pending_no_instruments">
              No instrument of this study is on this device yet: they are listed once the server has the
              participant.
            </Trans>
          </p>
        ) : (
          <ul className="pending-participant__instruments">
            {instruments.map((instrument) => (
              <li key={instrument.instrumentId}>
                <Link
                  className="button button--secondary"
                  to="/studies/$studyId/sites/$siteId/participants/$participantId/instruments/$instrumentId/$instrument"
                  params={{
                    studyId,
                    siteId,
                    participantId,
                    instrumentId: instrument.instrumentId,
                    instrument: instrument.segment,
                  }}
                >
                  {instrument.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="pending-consents-heading">
        <h2 id="pending-consents-heading">
          <Trans id="enrolment_pending_consents_heading">Consents</Trans>
        </h2>
        {consents.length === 0 ? (
          <p className="empty-state">
            <Trans id="enrolment_pending_no_consents">
              No consent of this study is on this device to sign now: they are offered once the server has the
              participant.
            </Trans>
          </p>
        ) : (
          <ul className="pending-participant__instruments">
            {consents.map((consent) => (
              <li key={consent.consentId}>
                <Link
                  className="button button--secondary"
                  to="/studies/$studyId/sites/$siteId/consents/$consentId/participants/$participantId/version/$versionId"
                  params={{
                    studyId,
                    siteId,
                    consentId: consent.consentId,
                    participantId,
                    versionId: consent.version,
                  }}
                >
                  {consent.title}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {waiting.length > 0 ? (
        <section aria-labelledby="pending-queued-heading">
          <h2 id="pending-queued-heading">
            <Trans id="enrolment_pending_queued">Waiting to be sent after the participant</Trans>
          </h2>
          <ul>
            {waiting.map((queued) => (
              <li key={queued.id}>{queued.label}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="form__actions">{backToSearch}</div>
    </div>
  );
}
