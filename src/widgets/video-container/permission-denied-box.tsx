import { Trans } from "@lingui/react/macro";

type Props = { failure: "permission" | "connection"; className?: string };

/**
 * What a person sees when the video cannot start (spec 01 section 8, "Video room connection
 * failure"): which part failed and what to do about it.
 */
export function PermissionDeniedBox({ failure, className = "" }: Props) {
  return (
    <div className={`permission-denied ${className}`} role="alert">
      {failure === "permission" ? (
        <>
          <p className="permission-denied__title">
            <Trans id="video_permission_denied_title">Camera and microphone are blocked</Trans>
          </p>
          <p>
            <Trans id="video_permission_denied_help">
              Allow this site to use the camera and the microphone (the camera icon in the address bar, or the
              browser's site settings), make sure no other app is using them, then hang up and open the visit
              again.
            </Trans>
          </p>
        </>
      ) : (
        <>
          <p className="permission-denied__title">
            <Trans id="video_connection_failed_title">The video visit could not connect</Trans>
          </p>
          <p>
            <Trans id="video_connection_failed_help">
              Check the internet connection and that camera and microphone are allowed for this site, then
              hang up and open the visit again. If it keeps failing, the visit may have ended or its link may
              no longer be valid: contact the study site.
            </Trans>
          </p>
        </>
      )}
    </div>
  );
}
