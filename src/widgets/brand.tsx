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

/** The logo: the name's initial on the mark, then the name (the product's unless given). */
export function BrandMark({ name = PRODUCT_NAME }: { name?: string }) {
  return (
    <>
      <span className="brand__mark" aria-hidden="true">
        {[...name.trim()][0]?.toUpperCase() ?? ""}
      </span>
      <span className={logoNameClass(name)}>{name}</span>
    </>
  );
}
