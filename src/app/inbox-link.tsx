/**
 * The navigation bar's Inbox entry, with a dot while any announcement is unread. The list is the
 * inbox's own query (same cache, same architecture-version rule), so opening an announcement
 * clears the dot here too.
 */
import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useInboxAnnouncements } from "../api/announcements-api.ts";
import { readSelection } from "../features/studies/study-selection.ts";
import "./inbox-link.css";

/** An envelope. */
function InboxIcon() {
  return (
    <svg
      className="inbox-link__icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M4 6h16v12H4zM4 7l8 6 8-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function InboxLink() {
  const { unreadCount: unread } = useInboxAnnouncements(readSelection()?.studyId);
  return (
    <Link to="/inbox" className="inbox-link" activeProps={{ "aria-current": "page" }}>
      <InboxIcon />
      <span className="inbox-link__text">
        <Trans id="nav_inbox">Inbox</Trans>
      </span>
      {unread > 0 ? (
        <span className="inbox-link__dot" data-testid="inbox-unread-dot">
          <span className="visually-hidden">
            {" "}
            <Trans id="nav_inbox_unread">(unread announcements)</Trans>
          </span>
        </span>
      ) : null}
    </Link>
  );
}
