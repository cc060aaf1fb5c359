/**
 * zod's issue messages in English ("Invalid input: expected string, received number", "Too big:
 * expected string to have <=200 characters"), for the places that show them to a person: a
 * survey definition's problems (validate-definition.ts: the instrument page, the import
 * commands), an answer of the API that breaks its contract (src/api/request.ts), the outbox's
 * unreadable records (src/features/outbox-review/unreadable-records.ts) and the server's 400s
 * (server/http/errors.ts).
 *
 * Classic zod (`import { z } from "zod"`) installs English as a side effect of making its first
 * schema. The contracts are zod/mini schemas, to keep the app's first download small, and
 * zod/mini installs no locale: without this module each of those messages would read "Invalid
 * input". Importing it is enough; it must run before the first parse (not before the schemas are
 * made: a message is written when an issue is found).
 */
import { config } from "zod/v4/core";
import en from "zod/v4/locales/en.js";

config(en());
