/**
 * The inactivity watcher (spec 01 section 4): records the user's activity in the shared
 * last_active stamp, locks the session before the timeout (the password is asked for, with the
 * seconds left counting down), and logs out at zero. Every tab watches the same stamp, so activity in one tab keeps them all signed in, and
 * unlocking in one tab opens the lock in the others (the storage event).
 * The arithmetic is in src/auth/session-timeout.ts.
 */
import { Component, lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { logout } from "../../auth/logout.ts";
import { getStoredUser, markActive, subscribeToStoredUser } from "../../auth/session-store.ts";
import { withChunkTimeout } from "../../widgets/loading/load-chunk.ts";
import { COUNTDOWN_TICK_MS, inactivityState, shouldRecordActivity } from "../../auth/session-timeout.ts";
import { currentSessionTiming, sessionTimedOutMessage } from "../../auth/session-timing-setting.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";

/**
 * The lock's code (its form and the password check) is needed only after minutes of idleness:
 * it stays out of the first download and is fetched once a user is signed in, so that it is on
 * the device before the connection can go.
 */
const loadLock = withChunkTimeout(() => import("./inactivity-lock.tsx"));
const InactivityLock = lazy(() => loadLock().then((module) => ({ default: module.InactivityLock })));

const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel", "touchmove"] as const;

export function SessionInactivity() {
  const user = useStoredUser();
  const signedIn = user !== null;
  const [remainingS, setRemainingS] = useState<number | null>(null);
  const promptedRef = useRef(false);

  useEffect(() => {
    if (!signedIn) return;
    void loadLock().catch((error: unknown) =>
      console.error("The inactivity lock could not be loaded", error),
    );
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

  if (!user || remainingS === null) return null;
  return (
    // Signing out at zero does not depend on the lock's code: the watcher above does it.
    <LockLoadBoundary>
      <Suspense fallback={null}>
        <InactivityLock key={user.id} remainingS={remainingS} user={user} />
      </Suspense>
    </LockLoadBoundary>
  );
}

/** A lock whose code could not load shows nothing; the session still ends at zero. */
class LockLoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error("The inactivity lock could not be shown", error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
