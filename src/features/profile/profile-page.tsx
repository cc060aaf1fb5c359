import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useRouter } from "@tanstack/react-router";
import type { CountryCode } from "libphonenumber-js";
import { useId, useState, type FormEvent } from "react";
import { usePatchMe } from "../../api/users-api.ts";
import { updateStoredUser, type StoredUser } from "../../auth/session-store.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { PhoneInput } from "../../widgets/phone-input/phone-input.tsx";
import { showToast, TOAST_ERROR_MS, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import {
  canSaveProfile,
  dialCodeOf,
  initialCountry,
  isPhoneValid,
  nationalPart,
  phoneToSend,
  smsAlertsOffered,
} from "./phone.ts";
import { TextField } from "../../widgets/field/text-field.tsx";

const updatedSuccess = msg({ id: "clinro_user_updated_success", message: "Your profile was updated." });
const updatedFail = msg({
  id: "clinro_user_updated_fail",
  message: "User info failed to save. Try again later.",
});

/** Session data that is not part of the user the PATCH call sends. */
function userToSend(user: StoredUser) {
  const {
    token: _token,
    exp: _exp,
    iat: _iat,
    last_active: _lastActive,
    ...rest
  } = user as StoredUser & {
    iat?: number;
  };
  return rest;
}

/** /users/profile: the user's own name, read-only email, SMS alerts and phone. */
export function ProfilePage() {
  const user = useStoredUser();
  // The route lets only signed-in users in; after a sign-out the page is on its way out.
  if (!user) return null;
  return <ProfileForm key={user.id} user={user} />;
}

function ProfileForm({ user }: { user: StoredUser }) {
  const { t } = useLingui();
  const saveProfile = usePatchMe();
  const router = useRouter();
  const ids = {
    name: useId(),
    email: useId(),
    sms: useId(),
  };
  const busy = saveProfile.isPending;
  const smsOffered = smsAlertsOffered(user.permissions);
  const storedDialCode = user.countryDialCode ?? "";
  const storedPhone = user.phone ?? "";

  const [name, setName] = useState(user.nickname || user.name || "");
  const [isPhoneEnabled, setPhoneEnabled] = useState(smsOffered && Boolean(user.isPhoneEnabled));
  const [country, setCountry] = useState<CountryCode>(() =>
    initialCountry({
      phone: storedPhone,
      countryDialCode: storedDialCode,
      languages: navigator.languages ?? [],
    }),
  );
  const [phone, setPhone] = useState(() => nationalPart(storedPhone, storedDialCode));
  const [phoneInError, setPhoneInError] = useState(false);

  const checkPhone = (value = phone, code = country) => {
    setPhoneInError(value.trim() !== "" && !isPhoneValid(value, code));
  };
  const canSave = canSaveProfile({ name, isPhoneEnabled, phone }, phoneInError) && !busy;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isPhoneEnabled && !isPhoneValid(phone, country)) {
      setPhoneInError(true);
      return;
    }
    if (!canSaveProfile({ name, isPhoneEnabled, phone }, false)) return;
    const countryDialCode = dialCodeOf(country);
    saveProfile.mutate(
      {
        ...userToSend(user),
        nickname: name.trim(),
        isPhoneEnabled,
        countryDialCode,
        phone: phoneToSend({ isPhoneEnabled, phone, countryDialCode }),
      },
      {
        onSuccess: (saved) => {
          updateStoredUser(saved);
          showToast(updatedSuccess, "success", TOAST_SUCCESS_MS);
          void router.invalidate();
        },
        onError: () => showToast(updatedFail, "error", TOAST_ERROR_MS),
      },
    );
  }

  return (
    <div className="page page--narrow">
      <h1 tabIndex={-1}>
        <Trans id="profile_heading">Your profile</Trans>
      </h1>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <TextField
          label={<Trans id="profile_name">Name</Trans>}
          id={ids.name}
          type="text"
          autoComplete="name"
          required
          aria-required="true"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <div className="field">
          <label htmlFor={ids.email}>
            <Trans id="profile_email">Email</Trans>
          </label>
          <input id={ids.email} type="email" value={user.username} readOnly className="input--read-only" />
        </div>
        {smsOffered ? (
          <>
            <div className="toggle-field">
              <input
                id={ids.sms}
                type="checkbox"
                role="switch"
                className="toggle-field__input"
                checked={isPhoneEnabled}
                onChange={(event) => {
                  setPhoneEnabled(event.target.checked);
                  if (!event.target.checked) setPhoneInError(false);
                }}
              />
              <label htmlFor={ids.sms}>
                <Trans id="profile_sms_alerts">Receive SMS alerts</Trans>
              </label>
            </div>
            {isPhoneEnabled ? (
              <PhoneInput
                legend={<Trans id="profile_phone">Phone number</Trans>}
                country={country}
                onCountryChange={(code) => {
                  setCountry(code);
                  if (phone.trim()) checkPhone(phone, code);
                }}
                number={phone}
                onNumberChange={(value) => {
                  setPhone(value);
                  // An error goes away as soon as the number is right; it comes back on blur.
                  if (phoneInError && isPhoneValid(value, country)) setPhoneInError(false);
                }}
                onNumberBlur={() => checkPhone()}
                error={
                  phoneInError
                    ? t({ id: "clinro_phone_error_invalid", message: "Please enter a valid phone number" })
                    : null
                }
              />
            ) : null}
          </>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={!canSave}>
            {t({ id: "profile_save", message: "Save" })}
          </button>
        </div>
      </form>
      <p className="profile-page__links">
        <Link to="/users/change-password" className="text-link">
          <Trans id="profile_change_password_link">Change my password</Trans>
        </Link>
      </p>
    </div>
  );
}
