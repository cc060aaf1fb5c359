/**
 * The file name of a downloaded completed consent: the consent's title, its version and the
 * participant's subject id, so that several downloads in one folder tell themselves apart.
 */
export function completedConsentFileName({
  title,
  version,
  subjectId,
}: {
  title: string;
  version: number;
  subjectId: string;
}) {
  return `${fileNamePart(title) || "consent"}-v${version}-${fileNamePart(subjectId) || "participant"}.pdf`;
}

/** Letters and digits (accents dropped), words joined by hyphens: safe on every file system. */
function fileNamePart(text: string) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
