/**
 * The participant form: subject id, first and last name, date of birth, gender (or none given)
 * and an optional email. Every field labelled, each problem said under its field and announced;
 * the first field with a problem takes the focus when the form is sent.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import {
  EMAIL_MAX_LENGTH,
  PERSON_NAME_MAX_LENGTH,
  SUBJECT_ID_MAX_LENGTH,
  type ParticipantFields,
} from "../../../core/contracts/enrolment.ts";
import { TextField } from "../../widgets/field/text-field.tsx";
import { DateInput } from "../../widgets/date-picker/date-input.tsx";
import { isoOfDay } from "../../widgets/date-picker/date-text.ts";
import {
  localToday,
  participantFieldsOf,
  participantFormProblems,
  type FieldProblem,
  type FormProblems,
  type GenderChoice,
  type ParticipantFormField,
  type ParticipantFormValues,
} from "./participant-form-model.ts";

export type ServerProblem = { field?: ParticipantFormField | undefined; text: string };

type Props = {
  initial: ParticipantFormValues;
  submitLabel: ReactNode;
  /** Resolves when the form's work is done; the form stays disabled meanwhile. */
  onSubmit: (fields: ParticipantFields) => Promise<void>;
  /** A refusal the server gave, said under the field it names (or above the buttons). */
  serverProblem?: ServerProblem | null | undefined;
  cancel?: ReactNode;
};

/** The date of birth while its text is not a date (participantFormProblems: "date"). */
const NOT_A_DATE = "not-a-date";

const FIELD_ORDER: ParticipantFormField[] = [
  "subjectId",
  "firstName",
  "lastName",
  "dateOfBirth",
  "gender",
  "email",
];

export function ParticipantForm({ initial, submitLabel, onSubmit, serverProblem, cancel }: Props) {
  const { t } = useLingui();
  const [values, setValues] = useState(initial);
  const [shown, setShown] = useState<FormProblems>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const idPrefix = useId();
  const idOf = (field: ParticipantFormField) => `${idPrefix}-${field}`;

  const set = (field: ParticipantFormField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A corrected field is judged again when the form is sent.
    setShown((current) => ({ ...current, [field]: undefined }));
  };

  const problemText = (field: ParticipantFormField, problem: FieldProblem | undefined) => {
    if (!problem) return serverProblem?.field === field ? serverProblem.text : undefined;
    switch (problem) {
      case "required":
        return t({ id: "enrolment_problem_required", message: "This field is required." });
      case "too-long":
        return field === "subjectId"
          ? t({
              id: "enrolment_problem_subject_id_long",
              message: `At most ${SUBJECT_ID_MAX_LENGTH} characters.`,
            })
          : field === "email"
            ? t({ id: "enrolment_problem_email_long", message: `At most ${EMAIL_MAX_LENGTH} characters.` })
            : t({
                id: "enrolment_problem_name_long",
                message: `At most ${PERSON_NAME_MAX_LENGTH} characters.`,
              });
      case "date":
        return t({ id: "enrolment_problem_date", message: "Enter a real date." });
      case "future":
        return t({ id: "enrolment_problem_future", message: "A date of birth cannot be in the future." });
      case "email":
        return t({
          id: "enrolment_problem_email",
          message: "Enter an email address, like name@example.org.",
        });
    }
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problems = participantFormProblems(values, new Date());
    setShown(problems);
    const first = FIELD_ORDER.find((field) => problems[field]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(idOf(first))}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(participantFieldsOf(values));
    } finally {
      setBusy(false);
    }
  }

  const genderOptions: { value: GenderChoice; label: string }[] = [
    { value: "f", label: t({ id: "enrolment_gender_f", message: "Female" }) },
    { value: "m", label: t({ id: "enrolment_gender_m", message: "Male" }) },
    { value: "o", label: t({ id: "enrolment_gender_o", message: "Other" }) },
    { value: "none", label: t({ id: "enrolment_gender_none", message: "Not given" }) },
  ];
  const formError = serverProblem && !serverProblem.field ? serverProblem.text : undefined;

  return (
    <form
      ref={formRef}
      className="form card enrolment-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-describedby={formError ? errorId : undefined}
    >
      <TextField
        id={idOf("subjectId")}
        label={t({ id: "enrolment_subject_id", message: "Subject id" })}
        hint={t({ id: "enrolment_subject_id_hint", message: "Unique in the study." })}
        value={values.subjectId}
        onChange={(event) => set("subjectId")(event.target.value)}
        maxLength={SUBJECT_ID_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        required
        error={problemText("subjectId", shown.subjectId)}
      />
      <TextField
        id={idOf("firstName")}
        label={t({ id: "enrolment_first_name", message: "First name" })}
        value={values.firstName}
        onChange={(event) => set("firstName")(event.target.value)}
        maxLength={PERSON_NAME_MAX_LENGTH}
        autoComplete="off"
        required
        error={problemText("firstName", shown.firstName)}
      />
      <TextField
        id={idOf("lastName")}
        label={t({ id: "enrolment_last_name", message: "Last name" })}
        value={values.lastName}
        onChange={(event) => set("lastName")(event.target.value)}
        maxLength={PERSON_NAME_MAX_LENGTH}
        autoComplete="off"
        required
        error={problemText("lastName", shown.lastName)}
      />
      <DateInput
        id={idOf("dateOfBirth")}
        label={t({ id: "enrolment_date_of_birth", message: "Date of birth" })}
        defaultValue={values.dateOfBirth}
        isDayDisabled={(day) => isoOfDay(day) > localToday(new Date())}
        disabledMessage={problemText("dateOfBirth", "future")}
        // A text that is not a date is kept as such: the form says "Enter a real date." for it.
        onChange={(day, kind) => set("dateOfBirth")(day ? isoOfDay(day) : kind === "empty" ? "" : NOT_A_DATE)}
        required
        error={problemText("dateOfBirth", shown.dateOfBirth)}
      />
      <fieldset className="field enrolment-form__choices">
        <legend>{t({ id: "enrolment_gender", message: "Gender" })}</legend>
        {genderOptions.map((option, index) => (
          <label key={option.value} className="enrolment-form__choice">
            <input
              id={index === 0 ? idOf("gender") : undefined}
              type="radio"
              name={idOf("gender")}
              value={option.value}
              checked={values.gender === option.value}
              onChange={() => set("gender")(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <TextField
        id={idOf("email")}
        type="email"
        label={t({ id: "enrolment_email", message: "Email (optional)" })}
        value={values.email}
        onChange={(event) => set("email")(event.target.value)}
        maxLength={EMAIL_MAX_LENGTH}
        autoComplete="off"
        error={problemText("email", shown.email)}
      />
      {formError ? (
        <p id={errorId} className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="form__actions">
        {cancel}
        <button type="submit" className="button button--primary" disabled={busy} aria-disabled={busy}>
          {busy ? <Trans id="enrolment_saving">Saving…</Trans> : submitLabel}
        </button>
      </div>
    </form>
  );
}
