/** The product's name is a name, not a sentence: it is the same in every language. */
export const PRODUCT_NAME = "ClinRO";

/** Spec 01 section 9: the logo's class switches at names of 15 and 25 characters. */
export const LOGO_MEDIUM_NAME_CHARS = 15;
export const LOGO_LONG_NAME_CHARS = 25;

export type LogoSize = "short" | "medium" | "long";

/** The logo's size for a name: from 15 characters medium, from 25 long (counted as the reader sees them). */
export function logoSize(name: string): LogoSize {
  const length = [...name.trim()].length;
  if (length >= LOGO_LONG_NAME_CHARS) return "long";
  if (length >= LOGO_MEDIUM_NAME_CHARS) return "medium";
  return "short";
}

/** The class of the logo's name: a longer name is set smaller so that the bar keeps its height. */
export function logoNameClass(name: string) {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- CSS class names, not text
  return `brand__name brand__name--${logoSize(name)}`;
}

/**
 * The product's mark, the drawing of its install icon (the logo in the app is the icon
 * on the home screen): public/favicon.svg, from which the PNG icons of the manifest and the
 * Apple touch icon are made. A test holds the two drawings equal.
 */
export function LogoMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0b4f6c" />
      <path d="M41 22.5a13 13 0 1 0 0 19" fill="none" stroke="#fff" strokeWidth="7" strokeLinecap="round" />
      <circle cx="45" cy="32" r="4" fill="#f2a900" />
    </svg>
  );
}

/** The logo: the install icon's mark, then the name (the product's unless given). */
export function BrandMark({ name = PRODUCT_NAME }: { name?: string }) {
  return (
    <>
      <LogoMark />
      <span className={logoNameClass(name)}>{name}</span>
    </>
  );
}
