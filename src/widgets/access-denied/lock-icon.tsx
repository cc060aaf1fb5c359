/** A padlock, decorative: its meaning is always said in text next to it. */
export function LockIcon({ size = 20 }: { size?: number }) {
  return (
    <svg
      className="lock-icon"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M7 10V7a5 5 0 0 1 10 0v3M5 10h14v10H5z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="15" r="1.6" fill="currentColor" />
    </svg>
  );
}
