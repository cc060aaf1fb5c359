/**
 * The product's mascot (spec 02: the inbox empty state, the onboarding cards, the not-found
 * page): a clipboard with a face, drawn for ClinRO (public/mascot.svg). Always decorative: the
 * text next to it says what matters, so it carries an empty alt.
 */
import "./mascot.css";

/** The drawing, served from public/ at the app's base (Vite's `base`, "/" today). */
const MASCOT_SRC = `${import.meta.env.BASE_URL}mascot.svg`;
const DEFAULT_SIZE = 96;

export type MascotProps = {
  /** Width and height in CSS pixels (the drawing is square). */
  size?: number;
  className?: string;
};

export function Mascot({ size = DEFAULT_SIZE, className }: MascotProps) {
  return (
    <img
      src={MASCOT_SRC}
      alt=""
      width={size}
      height={size}
      className={className ? `mascot ${className}` : "mascot"}
      draggable={false}
    />
  );
}
