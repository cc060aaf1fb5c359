/**
 * A search box that filters as one types (the lists are already on the device): a labelled
 * search field and a Clear button disabled while the trimmed text is blank (spec 02 section 5).
 */
import { Trans } from "@lingui/react/macro";
import { useId } from "react";

/** Texts longer than this cannot match a title or a name; the box stops there. */
export const SEARCH_TEXT_MAX_LENGTH = 100;

export type SearchBoxProps = {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  /** An element that says how many rows are shown (a status), read with the field. */
  describedBy?: string;
};

export function isBlankSearch(text: string): boolean {
  return text.trim() === "";
}

export function SearchBox({ label, hint, value, onChange, describedBy }: SearchBoxProps) {
  const inputId = useId();
  const hintId = useId();
  const described = [hint ? hintId : "", describedBy ?? ""].filter(Boolean).join(" ");
  return (
    <form className="search-form" role="search" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor={inputId} className="search-form__label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="search-form__hint">
          {hint}
        </p>
      ) : null}
      <div className="search-form__row">
        <input
          id={inputId}
          type="search"
          className="search-form__input"
          value={value}
          maxLength={SEARCH_TEXT_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={described || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        <button
          type="button"
          className="button button--secondary"
          disabled={isBlankSearch(value)}
          onClick={() => onChange("")}
        >
          <Trans id="consents_filter_clear">Clear</Trans>
        </button>
      </div>
    </form>
  );
}
