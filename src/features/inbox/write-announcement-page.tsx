/**
 * /inbox/new: a coordinator or an administrator writes an announcement (title, study, all or one
 * of its sites, rich text) and sends it to that study's staff or that site's. The editor loads on
 * demand (TipTap is large). The server sanitises the HTML and checks every id; its refusals are
 * shown here, next to the form. One Idempotency-Key per text sent: a repeat of the same request
 * (a retry after a lost answer) is stored once.
 */
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useId, useRef, useState, type FormEvent } from "react";
import { usePostAnnouncement } from "../../api/announcements-api.ts";
import { ApiError } from "../../api/request.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import {
  ANNOUNCEMENT_TITLE_MAX,
  type PostAnnouncementRequest,
} from "../../../core/contracts/announcements.ts";
import { errorBody } from "../../../core/contracts/errors.ts";
import { showToast, TOAST_SUCCESS_MS } from "../../widgets/toast/toast-store.ts";
import { authorStudies } from "./authoring.ts";
import "./inbox.css";

const RichTextEditor = lazy(() => import("../../widgets/rich-text-editor/rich-text-editor.tsx"));

type FieldErrors = { title?: string; content?: string; form?: string };

/** A refusal's words: the server's message for a 400 or 403, else a general one. */
function refusalText(error: unknown, fallback: string) {
  if (error instanceof ApiError && (error.status === 400 || error.status === 403)) {
    const body = errorBody.safeParse(error.body);
    if (body.success) return body.data.message;
  }
  return fallback;
}

export function WriteAnnouncementPage() {
  const { t } = useLingui();
  const user = useStoredUser();
  const navigate = useNavigate();
  const studies = authorStudies(user?.permissions, user?.role);
  const ids = { title: useId(), study: useId(), site: useId(), content: useId(), errors: useId() };
  const [title, setTitle] = useState("");
  const [studyId, setStudyId] = useState(() => studies[0]?.studyId ?? 0);
  const [siteId, setSiteId] = useState<number | "all">("all");
  const [content, setContent] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const send = usePostAnnouncement();
  /** The key of the last request sent and its body: the same body is sent again under it. */
  const lastSent = useRef<{ key: string; body: string } | null>(null);
  const study = studies.find((candidate) => candidate.studyId === studyId);

  if (studies.length === 0) {
    return (
      <div className="page page--narrow">
        <h1 tabIndex={-1}>
          <Trans id="inbox_write_heading">Write an announcement</Trans>
        </h1>
        <p className="form-error" role="alert">
          <Trans id="inbox_write_not_allowed">
            Only clinical coordinators and administrators can write announcements.
          </Trans>
        </p>
      </div>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {};
    if (title.trim() === "")
      found.title = t({ id: "inbox_write_title_missing", message: "Give the announcement a title." });
    if (content.trim() === "")
      found.content = t({ id: "inbox_write_content_missing", message: "Write the announcement's text." });
    setErrors(found);
    if (found.title || found.content) return;
    const body: PostAnnouncementRequest = {
      study_id: studyId,
      site_id: siteId === "all" ? null : siteId,
      title: title.trim(),
      content,
    };
    const bodyText = JSON.stringify(body);
    if (lastSent.current?.body !== bodyText) lastSent.current = { key: crypto.randomUUID(), body: bodyText };
    send.mutate(
      { body, idempotencyKey: lastSent.current.key },
      {
        onSuccess: (stored) => {
          // Names what was sent and to whom, from the server's record.
          const sentTitle = stored.title;
          const study = stored.study_name;
          const site = stored.site_label;
          showToast(
            site
              ? msg({
                  id: "inbox_write_sent_to_site",
                  message: `Announcement “${sentTitle}” sent to the staff of ${site} in ${study}.`,
                })
              : msg({
                  id: "inbox_write_sent_to_study",
                  message: `Announcement “${sentTitle}” sent to the staff of every site of ${study}.`,
                }),
            "success",
            TOAST_SUCCESS_MS,
          );
          void navigate({ to: "/inbox" });
        },
        onError: (error) =>
          setErrors({
            form: refusalText(
              error,
              t({
                id: "inbox_write_failed",
                message: "The announcement could not be sent. Check your connection and try again.",
              }),
            ),
          }),
      },
    );
  };

  return (
    <div className="page page--narrow">
      <p className="inbox__back">
        <Link to="/inbox">
          <span aria-hidden="true">‹ </span>
          <Trans id="inbox_write_back">Inbox</Trans>
        </Link>
      </p>
      <h1 tabIndex={-1}>
        <Trans id="inbox_write_heading">Write an announcement</Trans>
      </h1>
      <form className="form card announcement-form" onSubmit={onSubmit} noValidate>
        {errors.form ? (
          <p className="form-error" role="alert">
            {errors.form}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={ids.title}>
            <Trans id="inbox_write_title">Title</Trans>
          </label>
          <input
            id={ids.title}
            type="text"
            required
            aria-required="true"
            maxLength={ANNOUNCEMENT_TITLE_MAX}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? `${ids.errors}-title` : undefined}
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              if (errors.title) setErrors((current) => ({ ...current, title: undefined }));
            }}
          />
          {errors.title ? (
            <p id={`${ids.errors}-title`} className="field-error">
              {errors.title}
            </p>
          ) : null}
        </div>
        <div className="announcement-form__row">
          <div className="field">
            <label htmlFor={ids.study}>
              <Trans id="inbox_write_study">Study</Trans>
            </label>
            <select
              id={ids.study}
              value={studyId}
              onChange={(event) => {
                setStudyId(Number(event.target.value));
                setSiteId("all");
              }}
            >
              {studies.map((candidate) => (
                <option key={candidate.studyId} value={candidate.studyId}>
                  {candidate.studyName}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.site}>
              <Trans id="inbox_write_site">Sites</Trans>
            </label>
            <select
              id={ids.site}
              value={siteId}
              onChange={(event) =>
                setSiteId(event.target.value === "all" ? "all" : Number(event.target.value))
              }
            >
              <option value="all">
                {t({ id: "inbox_write_all_sites", message: "All sites of the study" })}
              </option>
              {study?.sites.map((site) => (
                <option key={site.siteId} value={site.siteId}>
                  {site.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="field announcement-form__editor">
          <Suspense
            fallback={
              <p role="status">
                <Trans id="inbox_write_editor_loading">Loading the editor…</Trans>
              </p>
            }
          >
            <RichTextEditor
              id={ids.content}
              label={t({ id: "inbox_write_content", message: "Message" })}
              value={content}
              onChange={(html) => {
                setContent(html);
                if (errors.content) setErrors((current) => ({ ...current, content: undefined }));
              }}
            />
          </Suspense>
          {errors.content ? (
            <p className="field-error" role="alert">
              {errors.content}
            </p>
          ) : null}
        </div>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={send.isPending}>
            {send.isPending ? (
              <Trans id="inbox_write_sending">Sending…</Trans>
            ) : (
              <Trans id="inbox_write_send">Send announcement</Trans>
            )}
          </button>
          <Link to="/inbox" className="button button--secondary">
            <Trans id="inbox_write_cancel">Cancel</Trans>
          </Link>
        </div>
      </form>
    </div>
  );
}
