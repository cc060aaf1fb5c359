/**
 * Per study: the user's role there ("No access" or one of the clinician roles and the witness)
 * and, once a role is chosen, the study's sites they work in and whether they may export the
 * study's data of those sites. One fieldset per study, a labelled select and checkboxes: usable
 * by keyboard and screen reader.
 */
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { STAFF_STUDY_ROLES, type AssignableStudies } from "../../../core/contracts/staff.ts";
import { studyRoleLabels } from "./role-labels.ts";
import { chooseRole, isStudyRole, NO_ACCESS, toggleSite, type StudyChoices } from "./staff-form.ts";

type Props = {
  studies: AssignableStudies["studies"];
  choices: StudyChoices;
  onChange: (choices: StudyChoices) => void;
  /** Study ids whose role has no site ticked (shown once the form was sent). */
  missingSites: ReadonlySet<number>;
};

export function StudyAccessFields({ studies, choices, onChange, missingSites }: Props) {
  return (
    <div className="study-access">
      {studies.map((study) => (
        <StudyAccessFieldset
          key={study.study_id}
          study={study}
          choices={choices}
          onChange={onChange}
          missingSites={missingSites.has(study.study_id)}
        />
      ))}
    </div>
  );
}

function StudyAccessFieldset({
  study,
  choices,
  onChange,
  missingSites,
}: {
  study: AssignableStudies["studies"][number];
  choices: StudyChoices;
  onChange: (choices: StudyChoices) => void;
  missingSites: boolean;
}) {
  const { t } = useLingui();
  const { i18n } = useLinguiRuntime();
  const ids = { role: useId(), sites: useId(), error: useId() };
  const choice = choices[study.study_id] ?? NO_ACCESS;
  const siteIds = study.sites.map((site) => site.site_id);
  const studyName = study.study_name;
  const set = (next: typeof choice) => onChange({ ...choices, [study.study_id]: next });

  return (
    <fieldset className="study-access__study">
      <legend>{studyName}</legend>
      <div className="field">
        <label htmlFor={ids.role}>
          <Trans id="staff_study_role_label">Role in {studyName}</Trans>
        </label>
        <select
          id={ids.role}
          value={choice.role}
          onChange={(event) => {
            const value = event.target.value;
            set(chooseRole(choice, isStudyRole(value) ? value : "", siteIds));
          }}
        >
          <option value="">{t({ id: "staff_study_no_access", message: "No access" })}</option>
          {STAFF_STUDY_ROLES.map((role) => (
            <option key={role} value={role}>
              {i18n._(studyRoleLabels[role])}
            </option>
          ))}
        </select>
      </div>
      {choice.role !== "" ? (
        <div
          role="group"
          aria-labelledby={ids.sites}
          aria-describedby={missingSites ? ids.error : undefined}
          className="study-access__sites"
        >
          <p id={ids.sites} className="study-access__sites-label">
            <Trans id="staff_study_sites_label">Sites in {studyName}</Trans>
          </p>
          {study.sites.length === 0 ? (
            <p>
              <Trans id="staff_study_no_sites">This study has no site in use.</Trans>
            </p>
          ) : (
            // Native checkboxes: the page stays light (the widget's React Aria is a large download).
            study.sites.map((site) => (
              <label key={site.site_id} className="study-access__site">
                <input
                  type="checkbox"
                  checked={choice.siteIds.includes(site.site_id)}
                  onChange={(event) => set(toggleSite(choice, site.site_id, event.target.checked))}
                />
                <span>{site.site_label}</span>
              </label>
            ))
          )}
          {missingSites ? (
            <p id={ids.error} className="field-error" role="alert">
              <Trans id="staff_study_sites_missing">Choose at least one site, or No access.</Trans>
            </p>
          ) : null}
        </div>
      ) : null}
      {choice.role !== "" ? (
        <label className="study-access__site study-access__export">
          <input
            type="checkbox"
            checked={choice.mayExport}
            onChange={(event) => set({ ...choice, mayExport: event.target.checked })}
          />
          <span>{t({ id: "staff_study_may_export", message: "May export the data of these sites" })}</span>
        </label>
      ) : null}
    </fieldset>
  );
}
