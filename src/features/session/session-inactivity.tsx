/**
 * The inactivity watcher (spec 01 section 4): records the user's activity in the shared
 * last_active stamp, shows the idle modal with its countdown before the timeout, and logs out at
 * zero. Every tab watches the same stamp, so activity in one tab keeps them all signed in, and
 * choosing to stay signed in in one tab closes the modal in the others (the storage event).
 * The arithmetic is in src/auth/session-timeout.ts.
 */
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { logout } from "../../auth/logout.ts";
import { getStoredUser, markActive, subscribeToStoredUser } from "../../auth/session-store.ts";
import { COUNTDOWN_TICK_MS, inactivityState, shouldRecordActivity } from "../../auth/session-timeout.ts";
import { currentSessionTiming, sessionTimedOutMessage } from "../../auth/session-timing-setting.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { Modal } from "../../widgets/modal/modal.tsx";

const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel", "touchmove"] as const;

export function SessionInactivity() {
  const user = useStoredUser();
  const signedIn = user !== null;
  const [remainingS, setRemainingS] = useState<number | null>(null);
  const promptedRef = useRef(false);

  useEffect(() => {
    if (!signedIn) return;
    const evaluate = () => {
      const current = getStoredUser();
      if (!current) return;
      const state = inactivityState(current.last_active, Date.now(), currentSessionTiming());
      if (state.phase === "expired") {
        promptedRef.current = false;
        setRemainingS(null);
        logout(sessionTimedOutMessage);
      } else if (state.phase === "warning") {
        promptedRef.current = true;
        setRemainingS(state.remainingS);
      } else {
        promptedRef.current = false;
        setRemainingS(null);
      }
    };
    // A tick each second: cheap, and right again at once after the device slept.
    evaluate();
    const timer = setInterval(evaluate, COUNTDOWN_TICK_MS);
    const unsubscribe = subscribeToStoredUser(evaluate);

    let lastRecorded = 0;
    const onActivity = () => {
      // While the modal asks, only its buttons decide: a key press (Tab to a button) is no answer.
      if (promptedRef.current) return;
      const now = Date.now();
      if (!shouldRecordActivity(lastRecorded, now)) return;
      lastRecorded = now;
      markActive(now);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    return () => {
      promptedRef.current = false;
      setRemainingS(null);
      clearInterval(timer);
      unsubscribe();
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, [signedIn]);

  if (!signedIn || remainingS === null) return null;
  return <IdleModal remainingS={remainingS} />;
}

function IdleModal({ remainingS }: { remainingS: number }) {
  const { t } = useLingui();
  const stay = () => {
    markActive();
  };
  return (
    <Modal
      role="alertdialog"
      className="idle-modal"
      title={t({ id: "idle_heading", message: "Are you still there?" })}
      onClose={stay}
      actions={
        <>
          <button type="button" className="button button--primary" onClick={stay}>
            <Trans id="idle_stay">Stay signed in</Trans>
          </button>
          <button type="button" className="button button--secondary" onClick={() => logout()}>
            <Trans id="idle_sign_out">Sign out</Trans>
          </button>
        </>
      }
    >
      <p>
        <Trans id="idle_body">
          You have been inactive for a while. For your security you will be signed out.
        </Trans>
      </p>
      <p className="idle-modal__countdown" aria-live="off">
        {t({
          id: "idle_countdown",
          message: plural(remainingS, {
            one: "Signing out in # second",
            other: "Signing out in # seconds",
          }),
        })}
      </p>
    </Modal>
  );
}
