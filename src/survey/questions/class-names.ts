/** Joins the class names that are set. */
export function classNames(...names: (string | false | null | undefined)[]) {
  return names.filter(Boolean).join(" ");
}

/** Joins element ids for aria-describedby; undefined when none is set. */
export function idList(...ids: (string | false | null | undefined)[]) {
  const joined = ids.filter(Boolean).join(" ");
  return joined === "" ? undefined : joined;
}
