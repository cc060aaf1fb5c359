/**
 * The phone input (spec 02 section 5): the international number with its dial code chosen
 * apart (a country list, the preferred country first, each named in the interface's language
 * with its code) and the national number in its own field. The caller owns the values and the
 * validity (phone rules in src/features/profile/phone.ts); the widget shows the error it is given.
 */
import { useLingui as useLinguiRuntime } from "@lingui/react";
import { Trans } from "@lingui/react/macro";
import { getCountries, getCountryCallingCode, type CountryCode } from "libphonenumber-js";
import { useId, useMemo, type ReactNode } from "react";

/** Preferred among countries sharing a dial code, and when nothing else decides (spec 02 section 5). */
export const PHONE_PREFERRED_COUNTRY: CountryCode = "US";

export type PhoneInputProps = {
  legend: ReactNode;
  country: CountryCode;
  onCountryChange: (country: CountryCode) => void;
  number: string;
  onNumberChange: (number: string) => void;
  onNumberBlur?: () => void;
  /** The error to show under the fields, or null. */
  error: string | null;
  required?: boolean;
};

/** Every country with its name in the locale and its dial code, the preferred country first. */
export function countryOptions(locale: string): { code: CountryCode; label: string }[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locale], { type: "region" });
  } catch {
    names = undefined;
  }
  const all = getCountries().map((code) => ({
    code,
    label: `${names?.of(code) ?? code} (+${getCountryCallingCode(code)})`,
  }));
  all.sort((a, b) => a.label.localeCompare(b.label, locale));
  return [
    ...all.filter((c) => c.code === PHONE_PREFERRED_COUNTRY),
    ...all.filter((c) => c.code !== PHONE_PREFERRED_COUNTRY),
  ];
}

export function PhoneInput({
  legend,
  country,
  onCountryChange,
  number,
  onNumberChange,
  onNumberBlur,
  error,
  required = true,
}: PhoneInputProps) {
  const { i18n } = useLinguiRuntime();
  const countryId = useId();
  const numberId = useId();
  const errorId = useId();
  const countries = useMemo(() => countryOptions(i18n.locale), [i18n.locale]);
  return (
    <fieldset className="phone-field">
      <legend>{legend}</legend>
      <div className="phone-field__row">
        <div className="field phone-field__country">
          <label htmlFor={countryId}>
            <Trans id="profile_country_code">Country code</Trans>
          </label>
          <select
            id={countryId}
            value={country}
            onChange={(event) => onCountryChange(event.target.value as CountryCode)}
          >
            {countries.map(({ code, label }) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field phone-field__number">
          <label htmlFor={numberId}>
            <Trans id="profile_phone_number">Number</Trans>
          </label>
          <input
            id={numberId}
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            required={required}
            aria-required={required}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? errorId : undefined}
            value={number}
            onChange={(event) => onNumberChange(event.target.value)}
            onBlur={onNumberBlur}
          />
        </div>
      </div>
      {error !== null ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
