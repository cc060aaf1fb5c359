/**
 * The profile's phone rules (spec 01 sections 2 and 5): the country whose dial code is shown,
 * the validity check, when Save may be pressed, and the phone as it is sent. Plain functions:
 * the page owns the text and the state.
 */
import {
  getCountries,
  getCountryCallingCode,
  isValidPhoneNumber,
  parsePhoneNumberFromString,
  type CountryCode,
} from "libphonenumber-js";

/** The country preferred when nothing else decides, and among countries sharing a dial code. */
export const PREFERRED_COUNTRY: CountryCode = "US";

export type ProfileForm = {
  name: string;
  isPhoneEnabled: boolean;
  /** The number as typed, without the dial code. */
  phone: string;
  /** E.g. '+1'. */
  countryDialCode: string;
};

export function dialCodeOf(country: CountryCode): string {
  return `+${getCountryCallingCode(country)}`;
}

function isCountry(value: string): value is CountryCode {
  return (getCountries() as string[]).includes(value);
}

/** The region of a language tag such as 'en-GB' or 'es-419' that names a country, if any. */
function regionOf(languageTag: string): CountryCode | undefined {
  const region = languageTag.split(/[-_]/)[1]?.toUpperCase();
  return region && isCountry(region) ? region : undefined;
}

/**
 * The country of the dial code select: the one of the stored phone when it has one; otherwise
 * the browser's country (from its languages) when it fits the stored dial code; otherwise the
 * preferred country (US) when it fits; otherwise the first country with that dial code. With no
 * stored dial code: the browser's country, or US.
 */
export function initialCountry({
  phone,
  countryDialCode,
  languages,
}: {
  phone: string;
  countryDialCode: string;
  languages: readonly string[];
}): CountryCode {
  const fromPhone = phone ? parsePhoneNumberFromString(phone)?.country : undefined;
  if (fromPhone) return fromPhone;
  const browserCountry = languages.map(regionOf).find((country) => country !== undefined);
  if (!countryDialCode) return browserCountry ?? PREFERRED_COUNTRY;
  const fits = (country: CountryCode) => dialCodeOf(country) === countryDialCode;
  if (browserCountry && fits(browserCountry)) return browserCountry;
  if (fits(PREFERRED_COUNTRY)) return PREFERRED_COUNTRY;
  return getCountries().find(fits) ?? browserCountry ?? PREFERRED_COUNTRY;
}

/** The stored phone as shown in the number field: without its dial code. */
export function nationalPart(phone: string, countryDialCode: string): string {
  if (!phone) return "";
  const parsed = parsePhoneNumberFromString(phone);
  if (parsed) return parsed.nationalNumber;
  return countryDialCode && phone.startsWith(countryDialCode) ? phone.slice(countryDialCode.length) : phone;
}

/** Whether the number (national, or international with a '+') is a valid phone number there. */
export function isPhoneValid(phone: string, country: CountryCode): boolean {
  const trimmed = phone.trim();
  if (!trimmed) return false;
  return isValidPhoneNumber(trimmed, country);
}

/**
 * The phone as the PATCH call sends it: empty when SMS alerts are off; otherwise stripped of
 * everything but digits and '+', with the dial code put in front unless the number already
 * starts with it (or carries its own, starting with '+').
 */
export function phoneToSend({
  isPhoneEnabled,
  phone,
  countryDialCode,
}: Pick<ProfileForm, "isPhoneEnabled" | "phone" | "countryDialCode">): string {
  if (!isPhoneEnabled) return "";
  const digits = phone.replace(/[^0-9+]/g, "");
  if (!digits) return "";
  const prefix = countryDialCode.replace(/[^0-9+]/g, "");
  if (digits.startsWith(prefix) || digits.startsWith("+")) return digits;
  return `${prefix}${digits}`;
}

/** Save is disabled when the name is empty, or when SMS is on and the phone is empty or in error. */
export function canSaveProfile(
  form: Pick<ProfileForm, "name" | "isPhoneEnabled" | "phone">,
  phoneInError: boolean,
) {
  if (!form.name.trim()) return false;
  if (form.isPhoneEnabled && (!form.phone.trim() || phoneInError)) return false;
  return true;
}

/** SMS alerts are offered only when some study in the user's permissions has them. */
export function smsAlertsOffered(permissions: Record<string, { sms_enabled: boolean }> | undefined): boolean {
  return Object.values(permissions ?? {}).some((study) => study.sms_enabled);
}
