import { useEffect, useRef } from "react";

type Props = {
  stream: MediaStream | null;
  /** The local picture is muted (no echo) and mirrored, as people expect of themselves. */
  local?: boolean;
  label: string;
  className?: string;
  testId?: string;
};

/** A <video> playing a MediaStream (the local camera or the other side). */
export function VideoStream({ stream, local = false, label, className = "", testId }: Props) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (stream) video.play().catch(() => {});
  }, [stream]);
  return (
    // A live call has no caption file to offer.
    // eslint-disable-next-line jsx-a11y/media-has-caption
    <video
      ref={ref}
      className={`video-stream ${local ? "video-stream--local" : "video-stream--remote"} ${className}`}
      aria-label={label}
      data-testid={testId}
      autoPlay
      playsInline
      muted={local}
    />
  );
}
