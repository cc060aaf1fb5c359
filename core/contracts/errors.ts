import * as z from "zod/mini";

/** Every non-2xx answer of the API carries this body. */
export const errorBody = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  /** For 400s: which field was wrong and why. */
  issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
});
export type ErrorBody = z.infer<typeof errorBody>;
