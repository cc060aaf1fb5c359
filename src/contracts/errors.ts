import { z } from "zod";

/** Every non-2xx answer of the API carries this body. */
export const errorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  /** For 400s: which field was wrong and why. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
