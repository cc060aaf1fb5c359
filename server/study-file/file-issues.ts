/**
 * What is wrong with a study file, each problem named by its path in the file
 * (`sites[1].tree_level: must be a whole number`), so that a refused file can be fixed in one go.
 */
import { formatPath } from "../../core/survey-engine/validate-definition.ts";

export type FileIssue = { path: readonly PropertyKey[]; message: string };

/** `sites[1].tree_level: must be a whole number`; a problem of the whole file has no path. */
export function formatIssue(issue: FileIssue): string {
  const where = formatPath(issue.path);
  return where === "" ? issue.message : `${where}: ${issue.message}`;
}

/** A study file that cannot be applied: every issue found, in file order. */
export class StudyFileError extends Error {
  constructor(
    message: string,
    readonly issues: readonly FileIssue[] = [],
  ) {
    super(message);
    this.name = "StudyFileError";
  }
}
