/** The product's name is a name, not a sentence: it is the same in every language. */
export const PRODUCT_NAME = "ClinRO";
const PRODUCT_INITIAL = PRODUCT_NAME.slice(0, 1);

export function BrandMark() {
  return (
    <>
      <span className="brand__mark" aria-hidden="true">
        {PRODUCT_INITIAL}
      </span>
      <span className="brand__name">{PRODUCT_NAME}</span>
    </>
  );
}
