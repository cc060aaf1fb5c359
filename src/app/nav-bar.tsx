import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useEffect, useId, useRef, useState } from "react";
import { managementRoleAllows } from "../../core/contracts/management-roles.ts";
import { logout } from "../auth/logout.ts";
import { useStoredUser } from "../auth/use-stored-user.ts";
import { listItems } from "../outbox/outbox-store.ts";
import { usePendingSummary } from "../outbox-ui/use-outbox.ts";
import { summarizeUnsent, unsentList, unsentTotal, type UnsentSummary } from "../outbox-ui/unsent-summary.ts";
import { BrandMark } from "../widgets/brand.tsx";
import { Modal } from "../widgets/modal/modal.tsx";
import { formatLongDate, formatShortDate } from "../i18n/format-date.ts";
import { InboxLink } from "./inbox-link.tsx";
import { watchStickyHeaderHeight } from "./sticky-header-height.ts";
import { StudyNavBar } from "./study-nav-bar.tsx";

/** An outbox tray with an upward arrow. */
function OutboxIcon() {
  return (
    <svg
      className="outbox-badge__icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M12 3v11m0-11-4 4m4-4 4 4M4 13v5a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

const isoDate = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

/**
 * The navigation bar: brand, today's date, the count of the user's writes not yet sent, and the
 * user menu. Logging out with writes pending asks first; they stay on the device either way.
 */
export function NavBar() {
  const { t, i18n } = useLingui();
  const user = useStoredUser();
  // Counted as a coordinator counts: a consent with its signatures is one form.
  const pendingSummary = usePendingSummary(user?.id);
  const pending = unsentTotal(pendingSummary);
  const pendingList = unsentList(pendingSummary, i18n);
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  /** What is still to send when the user asked to log out; null while not asking. */
  const [unsentAtLogout, setUnsentAtLogout] = useState<UnsentSummary | null>(null);
  const logoutList = unsentAtLogout ? unsentList(unsentAtLogout, i18n) : "";
  const menuRef = useRef<HTMLDivElement>(null);
  const today = new Date();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);

  // What sticks under the header (a long table's header row) needs its height.
  useEffect(() => (headerRef.current ? watchStickyHeaderHeight(headerRef.current) : undefined), []);

  const requestLogout = async () => {
    setMenuOpen(false);
    // Read from the store itself: the badge's count may be a moment behind.
    const unsent = user
      ? summarizeUnsent((await listItems()).filter((item) => item.userId === user.id))
      : undefined;
    if (unsent && unsentTotal(unsent) > 0) setUnsentAtLogout(unsent);
    else logout();
  };

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnOutside = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("pointerdown", closeOnOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [menuOpen]);

  return (
    <header className="nav-bar" ref={headerRef}>
      <nav className="nav-bar__inner" aria-label={t({ id: "nav_label", message: "Main" })}>
        <Link to="/studies" className="brand">
          <BrandMark />
          <span className="visually-hidden">
            <Trans id="nav_all_studies">All studies</Trans>
          </span>
        </Link>
        {/* Shown DD-MMM-YYYY; read DD-MMMM-YYYY, a month name a screen reader says in full. */}
        <time className="nav-bar__date" dateTime={isoDate(today)}>
          <span aria-hidden="true">{formatShortDate(today)}</span>
          <span className="visually-hidden">{formatLongDate(today)}</span>
        </time>
        {user ? <InboxLink /> : null}
        {user && pending > 0 ? (
          <Link
            to="/outbox"
            className="outbox-badge"
            aria-label={t({ id: "nav_outbox_badge_list", message: `Waiting to be sent: ${pendingList}` })}
          >
            <OutboxIcon />
            <span className="outbox-badge__count">{pending}</span>
          </Link>
        ) : null}
        {user ? (
          <div className="user-menu" ref={menuRef}>
            <button
              ref={menuButtonRef}
              type="button"
              className="user-menu__button"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <span className="user-menu__avatar" aria-hidden="true">
                {(user.nickname || user.name || user.username).slice(0, 1).toUpperCase()}
              </span>
              <span className="user-menu__name">{user.nickname || user.name || user.username}</span>
            </button>
            {menuOpen ? (
              <ul id={menuId} className="user-menu__list">
                <li>
                  <Link to="/users/profile" className="user-menu__item" onClick={() => setMenuOpen(false)}>
                    <Trans id="nav_update_profile">Update profile</Trans>
                  </Link>
                </li>
                <li>
                  <Link
                    to="/users/change-password"
                    className="user-menu__item"
                    onClick={() => setMenuOpen(false)}
                  >
                    <Trans id="nav_change_password">Change my password</Trans>
                  </Link>
                </li>
                <li>
                  <Link to="/outbox" className="user-menu__item" onClick={() => setMenuOpen(false)}>
                    <Trans id="nav_queued_uploads">Queued uploads</Trans>
                  </Link>
                </li>
                {managementRoleAllows(user.role, "users") ? (
                  <li>
                    <Link to="/users" className="user-menu__item" onClick={() => setMenuOpen(false)}>
                      <Trans id="nav_users">Users</Trans>
                    </Link>
                  </li>
                ) : null}
                <li>
                  <button type="button" className="user-menu__item" onClick={() => void requestLogout()}>
                    <Trans id="nav_logout">Log out</Trans>
                  </button>
                </li>
              </ul>
            ) : null}
          </div>
        ) : null}
        {unsentAtLogout !== null && logoutList !== "" ? (
          <Modal
            title={t({ id: "logout_unsent_heading", message: "Log out with forms not sent?" })}
            onClose={() => setUnsentAtLogout(null)}
            returnFocusTo={menuButtonRef}
            actions={
              <>
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => setUnsentAtLogout(null)}
                >
                  <Trans id="modal_cancel">Cancel</Trans>
                </button>
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => {
                    setUnsentAtLogout(null);
                    logout();
                  }}
                >
                  <Trans id="nav_logout">Log out</Trans>
                </button>
              </>
            }
          >
            <p>
              {t({
                id: "logout_unsent_body",
                message: `Not sent yet: ${logoutList}. Everything stays on this device and is sent when you sign in again.`,
              })}
            </p>
          </Modal>
        ) : null}
      </nav>
      <StudyNavBar />
    </header>
  );
}
