/**
 * Says, on every signed-in screen, that the device's clock is wrong and by how much (measured
 * against the server's at sign-in, src/auth/device-clock.ts). The session works all the same;
 * what the device stamps itself (signature times, answers, events) would carry the wrong time.
 */
import { useLingui } from "@lingui/react/macro";
import { clockSkew } from "../auth/device-clock.ts";
import { useStoredUser } from "../auth/use-stored-user.ts";

export function ClockSkewNotice() {
  const { t, i18n } = useLingui();
  const user = useStoredUser();
  const skew = clockSkew(user?.clock_offset_ms);
  if (!skew) return null;
  const amount = new Intl.NumberFormat(i18n.locale, {
    style: "unit",
    unit: skew.unit,
    unitDisplay: "long",
  }).format(skew.value);
  return (
    <p className="clock-skew-notice" role="status">
      {skew.direction === "ahead"
        ? t({
            id: "clock_skew_ahead",
            message: `This device's clock is ${amount} ahead of the server's. Set the device's date and time: the times it records (signatures, answers) would be wrong.`,
          })
        : t({
            id: "clock_skew_behind",
            message: `This device's clock is ${amount} behind the server's. Set the device's date and time: the times it records (signatures, answers) would be wrong.`,
          })}
    </p>
  );
}
