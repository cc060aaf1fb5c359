/**
 * One announcement of the inbox: a disclosure button (sender, sent date, title, and the unread
 * dot) that shows the HTML content below it, sanitised again in the browser. Opening an unread
 * one marks it read at once and sends its read event through the outbox.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useMemo, useState } from "react";
import type { Announcement } from "../../../core/contracts/announcements.ts";
import { formatFullDateTime, formatLastMessageDate } from "../../i18n/format-last-message.ts";
import { sanitizeAnnouncementForDisplay } from "./safe-html.ts";

export type AnnouncementItemProps = {
  announcement: Announcement;
  now: Date;
  onOpen: (announcement: Announcement) => void;
};

export function AnnouncementItem({ announcement, now, onOpen }: AnnouncementItemProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const contentId = useId();
  const sent = new Date(announcement.sent);
  const html = useMemo(() => sanitizeAnnouncementForDisplay(announcement.content), [announcement.content]);
  const sender = announcement.sender || t({ id: "inbox_sender_study_team", message: "Study team" });
  const audience = announcement.site_label
    ? `${announcement.study_name} · ${announcement.site_label}`
    : announcement.study_name;

  const toggle = () => {
    const opening = !open;
    setOpen(opening);
    if (opening) onOpen(announcement);
  };

  return (
    <li className={`announcement${announcement.read ? "" : " announcement--unread"}`}>
      <h2 className="announcement__heading">
        <button
          type="button"
          className="announcement__toggle"
          aria-expanded={open}
          aria-controls={contentId}
          onClick={toggle}
        >
          <span className="announcement__dot-slot">
            {announcement.read ? null : (
              <span className="announcement__dot" data-testid="unread-dot">
                <span className="visually-hidden">
                  <Trans id="inbox_unread">Unread:</Trans>{" "}
                </span>
              </span>
            )}
          </span>
          <span className="announcement__summary">
            <span className="announcement__meta">
              <span className="announcement__sender">{sender}</span>
              <time
                className="announcement__date"
                dateTime={announcement.sent}
                title={formatFullDateTime(sent, i18n.locale)}
              >
                {formatLastMessageDate(sent, now, i18n.locale)}
              </time>
            </span>
            <span className="announcement__title">{announcement.title}</span>
            <span className="announcement__audience">{audience}</span>
          </span>
          <span className="announcement__chevron" aria-hidden="true" />
        </button>
      </h2>
      <div
        id={contentId}
        className="announcement__content"
        hidden={!open}
        // Sanitised twice: on the server when stored, and here (DOMPurify, safe-html.ts).
        dangerouslySetInnerHTML={open ? { __html: html } : undefined}
      />
    </li>
  );
}
