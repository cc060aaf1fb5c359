import { z } from "zod";
import { MAX_ID, rowId } from "./input-bounds.ts";

export const studyConfig = z.object({
  virtual_visits: z.boolean().optional(),
  instrument_architecture_version: z.number().int().optional(),
  clinro: z.object({ greeting: z.string().optional() }).optional(),
});

/** GET /control/studies/{studyId} */
export const studyResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  smsEnabled: z.boolean(),
  newConsentEnabled: z.boolean(),
  config: studyConfig,
  sites: z.array(
    z.object({
      site_id: z.number().int(),
      site_label: z.string(),
      tree_level: z.number().int(),
      is_virtual: z.boolean(),
    }),
  ),
});
export type StudyResponse = z.infer<typeof studyResponse>;

/** Ids are PostgreSQL integers: anything larger is not an id (src/contracts/input-bounds.ts). */
export { MAX_ID };
export const studyIdParam = z.object({ studyId: rowId("studyId") });
