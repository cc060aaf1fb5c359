import * as z from "zod/mini";
import { MAX_ID, rowId } from "./input-bounds.ts";

export const studyConfig = z.object({
  virtual_visits: z.optional(z.boolean()),
  instrument_architecture_version: z.optional(z.number().check(z.int())),
  clinro: z.optional(z.object({ greeting: z.optional(z.string()) })),
});

/** GET /control/studies/{studyId} */
export const studyResponse = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  smsEnabled: z.boolean(),
  newConsentEnabled: z.boolean(),
  config: studyConfig,
  sites: z.array(
    z.object({
      site_id: z.number().check(z.int()),
      site_label: z.string(),
      tree_level: z.number().check(z.int()),
      is_virtual: z.boolean(),
    }),
  ),
});
export type StudyResponse = z.infer<typeof studyResponse>;

/** Ids are PostgreSQL integers: anything larger is not an id (core/contracts/input-bounds.ts). */
export { MAX_ID };
export const studyIdParam = z.object({ studyId: rowId("studyId") });
