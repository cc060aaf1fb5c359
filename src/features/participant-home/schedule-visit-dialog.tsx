/**
 * "Schedule visit" on a participant's page (coordinators of a study with virtual visits): a
 * dialog with the date, the time, the duration and whether the visit is recorded. Each field's
 * mistake is said under it before anything is sent; the server's refusal is said in the dialog.
 * The server mails the participant the join link; the page says whether it could.
 *
 * One Idempotency-Key per visit asked for: sending the same visit again (after a lost answer)
 * reuses it, so a retry never schedules a second visit; a changed visit gets a new key.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState, type FormEvent } from "react";
import { ApiError, NetworkError } from "../../api/request.ts";
import { useScheduleVisit } from "../../api/visits-api.ts";
import type { Visit } from "../../../core/contracts/visits.ts";
import { VISIT_DURATION_MAX } from "../../../core/contracts/visits.ts";
import { errorBody } from "../../../core/contracts/errors.ts";
import { TextField } from "../../widgets/field/text-field.tsx";
import { Modal } from "../../widgets/modal/modal.tsx";
import { DateInput } from "../../widgets/date-picker/date-input.tsx";
import { compareDays, isoOfDay } from "../../widgets/date-picker/date-text.ts";
import { TimeInput } from "../../widgets/time-picker/time-input.tsx";
import { formatTime, parseTime } from "../../widgets/time-picker/time-format.ts";
import {
  initialVisitForm,
  readVisitForm,
  type VisitFormErrors,
  type VisitFormProblem,
  type VisitFormValues,
} from "./schedule-visit-form.ts";

export type ScheduleVisitDialogProps = {
  studyId: number;
  siteId: number;
  participantId: number;
  participantName: string;
  onScheduled: (visit: Visit) => void;
  onCancel: () => void;
};

const timeOfDay = (time: string) => (time ? parseTime(time, "24h") : null);

export function ScheduleVisitDialog(props: ScheduleVisitDialogProps) {
  const { t } = useLingui();
  const formId = useId();
  const recordedId = useId();
  const [values, setValues] = useState<VisitFormValues>(() => initialVisitForm(new Date()));
  // Days before today cannot be chosen (the date input's disabled days).
  const [today] = useState(() => {
    const now = new Date();
    return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  });
  const [errors, setErrors] = useState<VisitFormErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const sent = useRef<{ body: string; key: string } | null>(null);
  const schedule = useScheduleVisit(props.studyId, props.siteId);

  const problemText = (problem: VisitFormProblem | undefined) => {
    switch (problem) {
      case "date_missing":
        return t({ id: "visit_schedule_date_missing", message: "Enter the visit's date." });
      case "time_missing":
        return t({ id: "visit_schedule_time_missing", message: "Enter the visit's start time." });
      case "duration_invalid":
        return t({
          id: "visit_schedule_duration_invalid",
          message: `Enter a whole number of minutes from 1 to ${VISIT_DURATION_MAX}.`,
        });
      case "already_ended":
        return t({
          id: "visit_schedule_already_ended",
          message: "This visit would already have ended. Choose a later date or time.",
        });
      default:
        return undefined;
    }
  };

  const set = (change: Partial<VisitFormValues>) => {
    setValues((current) => ({ ...current, ...change }));
    setRefusal(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (schedule.isPending) return;
    const read = readVisitForm(values, new Date());
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setRefusal(null);
    const body = { ...read.body, participant_id: props.participantId };
    const text = JSON.stringify(body);
    if (sent.current?.body !== text) sent.current = { body: text, key: crypto.randomUUID() };
    schedule.mutate(
      { body, idempotencyKey: sent.current.key },
      {
        onSuccess: (visit) => props.onScheduled(visit),
        onError: (error) => setRefusal(refusalText(error)),
      },
    );
  };

  const refusalText = (error: Error) => {
    if (error instanceof NetworkError) {
      return t({
        id: "visit_schedule_offline",
        message: "The visit could not be sent: there is no connection. Try again when you are online.",
      });
    }
    if (error instanceof ApiError) {
      const body = errorBody.safeParse(error.body);
      if (error.status === 409 && body.success && body.data.code === "virtual_visits_disabled") {
        return t({ id: "visit_schedule_no_virtual_visits", message: "This study has no virtual visits." });
      }
      if (error.status === 403) {
        return t({
          id: "visit_schedule_forbidden",
          message: "Only a clinical coordinator of this study and site can schedule visits.",
        });
      }
      if (error.status === 400 && body.success) {
        const reason = body.data.message;
        return t({ id: "visit_schedule_refused", message: `The visit was not scheduled: ${reason}` });
      }
    }
    return t({ id: "visit_schedule_failed", message: "The visit could not be scheduled. Try again." });
  };

  const name = props.participantName;
  return (
    <Modal
      className="schedule-visit"
      title={t({ id: "visit_schedule_title", message: "Schedule a virtual visit" })}
      onClose={props.onCancel}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={props.onCancel}>
            <Trans id="modal_cancel">Cancel</Trans>
          </button>
          <button
            type="submit"
            form={formId}
            className="button button--primary"
            disabled={schedule.isPending}
          >
            {schedule.isPending ? (
              <Trans id="visit_schedule_sending">Scheduling…</Trans>
            ) : (
              <Trans id="visit_schedule_submit">Schedule visit</Trans>
            )}
          </button>
        </>
      }
    >
      <p>
        <Trans id="visit_schedule_intro">
          A video visit with {name}. The participant is emailed a link to join it.
        </Trans>
      </p>
      <form id={formId} className="schedule-visit__form" onSubmit={submit} noValidate>
        <div className="schedule-visit__when">
          <DateInput
            label={<Trans id="visit_schedule_date">Date</Trans>}
            required
            defaultValue={values.date}
            isDayDisabled={(day) => compareDays(day, today) < 0}
            disabledMessage={t({ id: "visit_schedule_date_past", message: "Choose today or a later day." })}
            error={problemText(errors.date)}
            onChange={(day) => set({ date: day ? isoOfDay(day) : "" })}
          />
          <TimeInput
            label={<Trans id="visit_schedule_time">Start time</Trans>}
            required
            value={timeOfDay(values.time)}
            error={problemText(errors.time)}
            onChange={(time) => set({ time: time ? formatTime(time, "24h") : "" })}
          />
        </div>
        <TextField
          label={<Trans id="visit_schedule_duration">Duration (minutes)</Trans>}
          type="number"
          inputMode="numeric"
          min={1}
          max={VISIT_DURATION_MAX}
          step={1}
          required
          value={values.duration}
          error={problemText(errors.duration)}
          onChange={(event) => set({ duration: event.target.value })}
        />
        <div className="toggle-field">
          <input
            id={recordedId}
            type="checkbox"
            role="switch"
            className="toggle-field__input"
            checked={values.recorded}
            onChange={(event) => set({ recorded: event.target.checked })}
          />
          <label htmlFor={recordedId}>
            <Trans id="visit_schedule_recorded">Record this visit</Trans>
          </label>
        </div>
        <p className="field-error" role="alert">
          {refusal}
        </p>
      </form>
    </Modal>
  );
}
